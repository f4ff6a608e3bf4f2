//! Networks written when `MB` and `MC` named the per-piece pseudo-legal blocks (now
//! `MBp`, `MCp`) still load as those blocks and evaluate as before; networks of the
//! thesis' `MB`/`MC` load as the thesis blocks.

use nnue_core::features::FeatureSet;
use nnue_core::nnue::arch::fnv1a32;
use nnue_core::nnue::{random_network, Architecture, Kernel, Network};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

/// The file `net` would have been written as before the rename: the same bytes
/// with `old` in the description where the current writer puts `new`.
fn as_written_before(net: &Network, new: &str, old: &str) -> Vec<u8> {
    let bytes = net.to_bytes();
    let len = u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
    let description = std::str::from_utf8(&bytes[12..12 + len]).unwrap();
    let renamed = description.replacen(new, old, 1);
    assert_ne!(renamed, description);
    let mut out = bytes[..8].to_vec();
    out.extend_from_slice(&(renamed.len() as u32).to_le_bytes());
    out.extend_from_slice(renamed.as_bytes());
    out.extend_from_slice(&bytes[12 + len..]);
    out
}

fn positions() -> Vec<Chess> {
    [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "4k3/8/8/8/4r3/8/4N3/4K3 w - - 0 1",
    ]
    .iter()
    .map(|fen| {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    })
    .collect()
}

#[test]
fn pseudo_legal_sets_keep_the_hash_of_their_old_names() {
    // Before the rename the feature hash was FNV-1a of the canonical name, so a
    // file of `All+MB` (pseudo-legal) has the hash of the text "All+MB".
    let arch = Architecture::new("All+MBp+MCp", 16, &[8]).unwrap();
    assert_eq!(arch.hashes().transformer, fnv1a32(b"All+MB+MC") ^ 32);
    let thesis = Architecture::new("All+MB+MC", 16, &[8]).unwrap();
    assert_eq!(
        thesis.hashes().transformer,
        fnv1a32(b"All+MB#thesis+MC#thesis") ^ 32
    );
    // Sets without those blocks hash as before (pinned in nnue_format.rs too).
    let all = Architecture::new("All", 512, &[32]).unwrap();
    assert_eq!(all.hashes().transformer, fnv1a32(b"All") ^ 1024);
}

#[test]
fn old_mb_and_mc_files_load_as_mbp_and_mcp() {
    for (new, old, seed) in [
        ("All+MBp", "All+MB", 1),
        ("All+MCp", "All+MC", 2),
        ("MBp+MCp", "MB+MC", 3),
        ("K*MCp", "K*MC", 4),
    ] {
        let arch = Architecture::new(new, 16, &[8]).unwrap();
        let net = random_network(&arch, seed).unwrap();
        let bytes = as_written_before(&net, new, old);
        let read = Network::from_bytes(&bytes, "old.nnue").unwrap();
        assert_eq!(read.architecture(), &arch, "{old}");
        // The file is written back byte for byte, old description included.
        assert!(read.to_bytes() == bytes, "{old}: round trip differs");
        for pos in positions() {
            assert_eq!(
                read.evaluate_board(Kernel::Scalar, pos.board(), pos.turn()),
                net.evaluate_board(Kernel::Scalar, pos.board(), pos.turn()),
                "{old}"
            );
        }
    }
}

#[test]
fn thesis_mb_and_mc_files_load_as_themselves() {
    for spec in ["All+MB", "All+MC", "MB+MC", "All+T", "KAm8"] {
        let arch = Architecture::new(spec, 16, &[8]).unwrap();
        let net = random_network(&arch, 5).unwrap();
        let bytes = net.to_bytes();
        let read = Network::from_bytes(&bytes, "new.nnue").unwrap();
        assert_eq!(read.architecture(), &arch, "{spec}");
        assert_eq!(
            FeatureSet::parse(&read.architecture().feature_set)
                .unwrap()
                .size(),
            arch.inputs
        );
        assert!(read.to_bytes() == bytes, "{spec}");
    }
}
