//! `.nnue` files: Stockfish 12 layout and hashes, byte-identical round trips of every
//! architecture, stable hashes, and errors (never panics) for broken files.

use nnue_core::nnue::arch::padded;
use nnue_core::nnue::{
    random_network, Architecture, FloatAffine, Network, NetworkError, ParameterKind,
};

const SF12_DESCRIPTION: &str = "Features=HalfKP(Friend)[41024->256x2],Network=AffineTransform[1<-32](ClippedReLU[32](AffineTransform[32<-32](ClippedReLU[32](AffineTransform[32<-512](InputSlice[512(0:512)])))))";

fn u32_at(bytes: &[u8], offset: usize) -> u32 {
    u32::from_le_bytes(bytes[offset..offset + 4].try_into().unwrap())
}

fn small_net() -> Vec<u8> {
    let arch = Architecture::new("All+H+V", 32, &[8, 4]).unwrap();
    random_network(&arch, 5).unwrap().to_bytes()
}

#[test]
fn halfkp_file_follows_stockfish_12_layout() {
    let net = random_network(&Architecture::halfkp_256(), 1).unwrap();
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), 21_022_697);
    assert_eq!(u32_at(&bytes, 0), 0x7AF3_2F16);
    assert_eq!(u32_at(&bytes, 4), 0x3E5A_A6EE);
    assert_eq!(u32_at(&bytes, 8), 177);
    assert_eq!(&bytes[12..189], SF12_DESCRIPTION.as_bytes());
    assert_eq!(u32_at(&bytes, 189), 0x5D69_D7B8);
    assert_eq!(u32_at(&bytes, 21_004_993), 0x6333_7156);
    assert_eq!(net.description(), SF12_DESCRIPTION);
    assert_eq!(net.feature_set_name(), "HalfKP");
    // Output layer: i32 bias at 21,022,661 then 32 i8 weights to the end.
    let out = &net.layers()[2];
    assert_eq!(
        i32::from_le_bytes(bytes[21_022_661..21_022_665].try_into().unwrap()),
        out.biases[0]
    );
    assert_eq!(
        bytes[21_022_665..]
            .iter()
            .map(|&b| b as i8)
            .collect::<Vec<_>>(),
        out.weights.as_slice()
    );
    let again = Network::from_bytes(&bytes, "halfkp.nnue").unwrap();
    assert!(again.to_bytes() == bytes);
}

#[test]
fn every_architecture_round_trips_byte_for_byte() {
    let cases: [(&str, usize, &[usize]); 8] = [
        ("All", 512, &[32]),
        ("All+H+V", 128, &[32, 32]),
        ("King-All", 16, &[8]),
        ("D1+D2", 24, &[15, 7]),
        ("PH+PV", 8, &[3]),
        ("MB+MC", 40, &[]),
        ("K*(H+V)", 8, &[33, 2]),
        ("HalfKP", 8, &[4]),
    ];
    for (spec, half, hidden) in cases {
        let arch = Architecture::new(spec, half, hidden).unwrap();
        let net = random_network(&arch, 9).unwrap();
        let bytes = net.to_bytes();
        assert_eq!(bytes.len() as u64, arch.file_size(), "{spec}");
        let read = Network::from_bytes(&bytes, "x.nnue").unwrap();
        assert_eq!(read.architecture(), &arch, "{spec}");
        assert_eq!(read.description(), arch.description());
        assert!(read.to_bytes() == bytes, "{spec}: round trip differs");
        // Padding columns of int8 rows are zero.
        for layer in read.layers() {
            for row in layer.weights.chunks(padded(layer.inputs)) {
                assert!(row[layer.inputs..].iter().all(|&w| w == 0));
            }
        }
    }
}

#[test]
fn header_hashes_are_stable() {
    // (arch, file, transformer, network): pinned so the file format cannot drift.
    let halfkp = Architecture::halfkp_256().hashes();
    assert_eq!(
        (halfkp.file, halfkp.transformer, halfkp.network),
        (0x3E5A_A6EE, 0x5D69_D7B8, 0x6333_7156)
    );
    let cases: [(&str, usize, &[usize], &str); 3] = [
        ("All", 512, &[32], "Features=All[768->512x2],Network=AffineTransform[1<-32](ClippedReLU[32](AffineTransform[32<-1024](InputSlice[1024(0:1024)])))"),
        ("All+H+V", 256, &[32, 32], "Features=All+H+V[960->256x2],Network=AffineTransform[1<-32](ClippedReLU[32](AffineTransform[32<-32](ClippedReLU[32](AffineTransform[32<-512](InputSlice[512(0:512)])))))"),
        ("King-All", 256, &[32, 32], "Features=King-All[49152->256x2],Network=AffineTransform[1<-32](ClippedReLU[32](AffineTransform[32<-32](ClippedReLU[32](AffineTransform[32<-512](InputSlice[512(0:512)])))))"),
    ];
    let mut seen = Vec::new();
    for (spec, half, hidden, description) in cases {
        let arch = Architecture::new(spec, half, hidden).unwrap();
        assert_eq!(arch.description(), description);
        let h = arch.hashes();
        assert_eq!(h.file, h.transformer ^ h.network);
        seen.push((h.file, h.transformer, h.network));
    }
    // Same layers as Stockfish's 256x2-32-32 => same network hash; the feature hash
    // (FNV-1a of the name) makes the transformer hashes differ.
    assert_eq!(seen[1].2, 0x6333_7156);
    assert_eq!(seen[2].2, 0x6333_7156);
    // Values checked against an independent Python evaluation of the formulas.
    assert_eq!(
        seen,
        vec![
            (0x7F7B_D4A5, 0x75AF_E764, 0x0AD4_33C1),
            (0xF5B7_D2D8, 0x9684_A38E, 0x6333_7156),
            (0x87F8_FF6E, 0xE4CB_8E38, 0x6333_7156),
        ]
    );
}

fn err(bytes: &[u8]) -> String {
    match Network::from_bytes(bytes, "broken.nnue") {
        Ok(_) => panic!("a broken file loaded"),
        Err(e) => {
            let text = e.to_string();
            assert!(text.starts_with("broken.nnue: "), "{text}");
            text
        }
    }
}

#[test]
fn broken_files_are_errors_naming_the_problem() {
    let good = small_net();
    let len = good.len();
    assert_eq!(
        err(&[]),
        "broken.nnue: not a .nnue file (it has 0 bytes; a .nnue file starts with the 4-byte version 0x7AF32F16)"
    );
    assert_eq!(
        err(b"not a network"),
        "broken.nnue: not a .nnue file (its first 4 bytes read 0x20746F6E; a .nnue file starts with the version 0x7AF32F16)"
    );
    let mut sf14 = good.clone();
    sf14[..4].copy_from_slice(&0x7AF3_2F20u32.to_le_bytes());
    assert_eq!(
        err(&sf14),
        "broken.nnue: unsupported .nnue version 0x7AF32F20 (Stockfish 14 and later); this program reads version 0x7AF32F16 (Stockfish 12/13 HalfKP and nnue-learn nets)"
    );
    assert!(err(&good[..10]).contains("description length needs bytes 8..12"));
    assert!(err(&good[..40]).contains("truncated: description needs bytes 12.."));
    let e = err(&good[..len - 1]);
    assert!(
        e.contains("needs bytes") && e.contains(&format!("..{len} but the file has {}", len - 1)),
        "{e}"
    );
    let mut trailing = good.clone();
    trailing.push(0);
    assert_eq!(
        err(&trailing),
        format!("broken.nnue: 1 trailing bytes after the network (it ends at byte offset {len}, the file has {} bytes)", len + 1)
    );

    let mut version = good.clone();
    version[0] ^= 1;
    assert_eq!(
        err(&version),
        "broken.nnue: not a .nnue file (its first 4 bytes read 0x7AF32F17; a .nnue file starts with the version 0x7AF32F16)"
    );

    let mut file_hash = good.clone();
    file_hash[4] ^= 0x10;
    assert!(err(&file_hash).contains("wrong file hash at byte offset 4: expected 0x"));

    let desc_len = u32_at(&good, 8) as usize;
    let mut ft_hash = good.clone();
    ft_hash[12 + desc_len] ^= 1;
    assert!(err(&ft_hash).contains(&format!(
        "wrong feature transformer hash at byte offset {}",
        12 + desc_len
    )));

    let arch = Architecture::new("All+H+V", 32, &[8, 4]).unwrap();
    let net_hash_at = 12 + desc_len + 4 + 2 * 32 + 2 * arch.inputs * 32;
    let mut net_hash = good.clone();
    net_hash[net_hash_at + 3] ^= 0x80;
    assert!(err(&net_hash).contains(&format!("wrong network hash at byte offset {net_hash_at}")));

    let mut description = good.clone();
    description[12 + 9] = b'Z';
    let e = err(&description);
    assert!(
        e.contains("bad architecture description at byte offset 12"),
        "{e}"
    );

    let mut huge = good.clone();
    huge[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(err(&huge).contains("over the limit"));

    // A standard-hash file with a wrong HalfKP size is caught by the size check.
    let halfkp = random_network(&Architecture::halfkp_256(), 2)
        .unwrap()
        .to_bytes();
    assert!(err(&halfkp[..1000]).contains("needs bytes 189..21022697 but the file has 1000 bytes"));

    match Network::load(std::path::Path::new("/nonexistent/dir/net.nnue")) {
        Err(NetworkError::Io { source_name, .. }) => {
            assert_eq!(source_name, "/nonexistent/dir/net.nnue")
        }
        other => panic!("expected an I/O error, got {other:?}"),
    }
}

#[test]
fn no_prefix_or_byte_flip_panics() {
    let good = small_net();
    for cut in 0..good.len().min(400) {
        assert!(
            Network::from_bytes(&good[..cut], "cut.nnue").is_err(),
            "a prefix of {cut} bytes loaded"
        );
    }
    for at in (0..good.len()).step_by(7) {
        let mut bad = good.clone();
        bad[at] ^= 0xFF;
        // Either rejected with an error or (parameter bytes) loaded: never a panic.
        let _ = Network::from_bytes(&bad, "flip.nnue");
    }
}

#[test]
fn stockfish_ignores_the_halfkp_description_and_so_do_we() {
    let net = random_network(&Architecture::halfkp_256(), 3).unwrap();
    let mut bytes = net.to_bytes();
    // Same length, different text: Stockfish 12 loads it.
    bytes[12..17].copy_from_slice(b"Other");
    bytes[20] = 0xFF; // not UTF-8: kept byte for byte
    let read = Network::from_bytes(&bytes, "renamed.nnue").unwrap();
    assert!(read.description().starts_with("Other"));
    assert!(read.to_bytes() == bytes);
}

#[test]
fn quantization_follows_formats_md() {
    assert_eq!(ParameterKind::Transformer.to_i16(0.5), 64);
    assert_eq!(ParameterKind::Transformer.to_i16(-1.0), -127);
    assert_eq!(ParameterKind::Transformer.to_i16(1000.0), i16::MAX);
    assert_eq!(ParameterKind::HiddenWeight.to_i8(1.0), 64);
    assert_eq!(ParameterKind::HiddenWeight.to_i8(3.0), 127);
    assert_eq!(ParameterKind::HiddenWeight.to_i8(-3.0), -128);
    assert_eq!(ParameterKind::HiddenBias.to_i32(0.5), 4064);
    assert_eq!(ParameterKind::OutputWeight.to_i8(1.0), 76);
    assert_eq!(ParameterKind::OutputBias.to_i32(0.25), 2400);
    assert_eq!(ParameterKind::OutputBias.to_i32(f32::NAN), 0);
    assert_eq!(ParameterKind::HiddenWeight.to_float(32), 0.5);

    // A float net of 768->8x2->1 with every transformer weight 1/127 and the
    // output weight 1: all pieces give 1 per active feature.
    let arch = Architecture::new("All", 8, &[]).unwrap();
    let ft_w = vec![1.0 / 127.0; 768 * 8];
    let out = FloatAffine {
        biases: vec![0.0],
        weights: vec![127.0 / 9600.0 * 8.0; 16],
    };
    let net = Network::from_float(arch, &[0.0; 8], &ft_w, &[out]).unwrap();
    assert_eq!(net.ft_weights()[0], 1);
    assert_eq!(net.layers()[0].weights[0], 8);
    let start = shakmaty::Chess::default();
    // 32 pieces -> accumulator 32 in all 16 inputs; 16 * 32 * 8 = 4096; / 16 = 256.
    assert_eq!(nnue_core::nnue::evaluate(&net, &start), 256);
    let wrong = Network::from_float(
        Architecture::new("All", 8, &[]).unwrap(),
        &[0.0; 7],
        &[],
        &[],
    );
    assert!(wrong
        .unwrap_err()
        .to_string()
        .contains("7 transformer biases, expected 8"));
}

mod arbitrary_input {
    use nnue_core::features::FeatureSet;
    use nnue_core::nnue::Network;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Any bytes after a valid version word: an error or a network, never a panic.
        #[test]
        fn reader_never_panics(tail in proptest::collection::vec(any::<u8>(), 0..600)) {
            let mut bytes = 0x7AF3_2F16u32.to_le_bytes().to_vec();
            bytes.extend_from_slice(&tail);
            let _ = Network::from_bytes(&bytes, "fuzz.nnue");
        }

        /// A valid header and description with garbage after it.
        #[test]
        fn reader_never_panics_after_a_header(cut in 0usize..2000, fill in any::<u8>()) {
            let arch = nnue_core::nnue::Architecture::new("H+V", 8, &[4]).unwrap();
            let mut bytes = nnue_core::nnue::random_network(&arch, 1).unwrap().to_bytes();
            let at = cut.min(bytes.len());
            for b in &mut bytes[at..] {
                *b = fill;
            }
            bytes.truncate(bytes.len() - (cut % 3));
            let _ = Network::from_bytes(&bytes, "fuzz.nnue");
        }

        /// Any feature-set name: parsed or refused, never a panic.
        #[test]
        fn feature_names_never_panic(name in "[A-Za-z0-9+*()\\- ]{0,24}") {
            if let Ok(set) = FeatureSet::parse(&name) {
                prop_assert_eq!(FeatureSet::parse(set.name()).unwrap().size(), set.size());
            }
        }
    }
}
