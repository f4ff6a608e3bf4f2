//! Property tests of `--init-net` (`Model::load`), which CI runs in place of the
//! fuzz target `fuzz/fuzz_targets/load_init_net.rs`: damaged copies (flipped
//! bytes, overwritten fields, cuts, extra bytes) of a small `.nnue` file our
//! trainer exports (`All 16x2-8-1`: i16 transformer, i8 and i32 hidden and
//! output layers) must load as starting weights or give one error line naming
//! the file, never panic; a net that loads exports the file's parameters (its
//! bytes but for the rows' padding, which the float model does not keep).

use std::path::Path;

use nnue_core::nnue::Network;
use nnue_learner::model::Model;
use nnue_test_support::damage::{check_error_line, damage, damaged};
use nnue_test_support::{init_net, init_net_shape, same_parameters, TempDir};
use proptest::prelude::*;
use proptest::test_runner::TestRunner;

/// Version, file hash, description length, description (up to 200 bytes),
/// transformer hash: where the reader decides the architecture.
const HEADER: std::ops::Range<usize> = 0..220;

/// Loads `bytes` written to `path` as the starting weights of [`shape`]: one
/// error line naming the file, or a model that exports to a file of the same
/// length and parameters (to `bytes` themselves when their padding is 0).
fn check(path: &Path, bytes: &[u8]) -> Result<(), TestCaseError> {
    std::fs::write(path, bytes).unwrap();
    match Model::load(path, &init_net_shape()) {
        Err(e) => check_error_line(&e.to_string(), &path.display().to_string())?,
        Ok(model) => {
            let (net, report) = model.export().expect("a loaded net exports");
            prop_assert_eq!(report.clamped(), 0);
            let file = Network::from_bytes(bytes, "file").expect("it loaded");
            prop_assert!(
                same_parameters(&net, &file),
                "exports the file's parameters"
            );
            prop_assert_eq!(net.to_bytes().len(), bytes.len());
        }
    }
    Ok(())
}

/// One test, so that its directory is removed at the end: the valid net
/// round-trips, the regression inputs give their error lines, and 200 damaged
/// copies load or give one error line.
#[test]
fn damaged_init_nets_load_or_give_one_error_line() {
    let dir = TempDir::new("init-net-proptest");
    let path = dir.path("init.nnue");
    let shape = init_net_shape();
    let bytes = init_net();
    check(&path, &bytes).unwrap();
    let name = path.display();
    // Found by the fuzz target: a carriage return in the description (byte 60,
    // the output layer's size) was quoted raw in the problem, splitting the
    // error line (core's `.nnue` reader).
    let mut carriage_return = bytes.clone();
    carriage_return[60] = b'\r';
    for (input, expected) in [
        (
            carriage_return,
            format!(
                "{name}: bad architecture description at byte offset 12: '\\r' is not a size \
                 (description: \"{}\")",
                "Features=All[768->16x2],Network=AffineTransform[\\r<-8](ClippedReLU[8](\
                 AffineTransform[8<-32](InputSlice[32(0:32)])))"
            ),
        ),
        (
            bytes[..10].to_vec(),
            format!(
                "{name}: truncated: description length needs bytes 8..12 but the file has 10 bytes"
            ),
        ),
        (
            [&bytes[..], &[0]].concat(),
            format!(
                "{name}: 1 trailing bytes after the network (it ends at byte offset {}, the \
                 file has {} bytes)",
                bytes.len(),
                bytes.len() + 1
            ),
        ),
    ] {
        std::fs::write(&path, &input).unwrap();
        assert_eq!(
            Model::load(&path, &shape).unwrap_err().to_string(),
            expected
        );
    }
    // Found by the fuzz target: a nonzero padding weight of the output row
    // (byte 25065) loads, and the export writes the padding as 0.
    let mut padding = bytes.clone();
    padding[25065] ^= 0xff;
    check(&path, &padding).unwrap();
    let exported = Model::load(&path, &shape).unwrap().export().unwrap().0;
    assert!(exported.to_bytes() == bytes);
    let mut runner = TestRunner::new(ProptestConfig::with_cases(200));
    let result = runner.run(&damage(bytes.len(), vec![HEADER]), |changes| {
        check(&path, &damaged(&bytes, &changes))
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}
