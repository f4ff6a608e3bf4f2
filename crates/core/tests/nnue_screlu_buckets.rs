//! SCReLU transformers and material output buckets: their description strings
//! and hashes, files that round-trip, refused descriptions, and the SCReLU
//! kernel against its scalar definition.

use nnue_core::nnue::{random_network, Activation, Architecture, Kernel, Network};

/// `All 768->64x2->1` with `activation` and `buckets`.
fn all64(activation: Activation, buckets: usize) -> Architecture {
    Architecture::new("All", 64, &[])
        .unwrap()
        .with_activation(activation)
        .with_output_buckets(buckets)
}

#[test]
fn descriptions_name_screlu_and_buckets_and_parse_back() {
    let plain = "Features=All[768->64x2],Network=AffineTransform[1<-128](InputSlice[128(0:128)])";
    let cases = [
        (Activation::ClippedRelu, 1, plain.to_string()),
        (
            Activation::SquaredClippedRelu,
            1,
            "Features=All[768->64x2],Network=AffineTransform[1<-128](SCReLU[128](\
             InputSlice[128(0:128)]))"
                .to_string(),
        ),
        (
            Activation::ClippedRelu,
            8,
            "Features=All[768->64x2],Network=MaterialBuckets[8](AffineTransform[8<-128](\
             InputSlice[128(0:128)]))"
                .to_string(),
        ),
        (
            Activation::SquaredClippedRelu,
            8,
            "Features=All[768->64x2],Network=MaterialBuckets[8](AffineTransform[8<-128](\
             SCReLU[128](InputSlice[128(0:128)])))"
                .to_string(),
        ),
    ];
    let mut hashes = Vec::new();
    for (activation, buckets, expected) in cases {
        let arch = all64(activation, buckets);
        assert_eq!(arch.description(), expected);
        assert_eq!(Architecture::from_description(&expected).unwrap(), arch);
        hashes.push(arch.hashes().file);
    }
    hashes.sort_unstable();
    hashes.dedup();
    assert_eq!(hashes.len(), 4, "every variant has its own file hash");
    // The default net's hashes do not move.
    let default = all64(Activation::ClippedRelu, 1);
    assert_eq!(default.description(), plain);
    assert_eq!(
        Architecture::new("All", 64, &[]).unwrap().hashes(),
        default.hashes()
    );
}

#[test]
fn a_hidden_layer_net_takes_both_options() {
    let arch = Architecture::new("All", 64, &[8])
        .unwrap()
        .with_activation(Activation::SquaredClippedRelu)
        .with_output_buckets(4);
    assert_eq!(
        arch.description(),
        "Features=All[768->64x2],Network=MaterialBuckets[4](AffineTransform[4<-8](\
         ClippedReLU[8](AffineTransform[8<-128](SCReLU[128](InputSlice[128(0:128)])))))"
    );
    assert_eq!(arch.summary(), "All 768->64x2-8-1 screlu buckets=4");
    assert_eq!(arch.affine_layers(), [(128, 8), (8, 4)]);
    let net = random_network(&arch, 7).unwrap();
    let back = Network::from_bytes(&net.to_bytes(), "hidden.nnue").unwrap();
    assert_eq!(back.to_bytes(), net.to_bytes());
}

#[test]
fn malformed_descriptions_are_refused_with_a_reason() {
    let refused = [
        // SCReLU in the wrong place.
        (
            "Features=All[768->64x2],Network=SCReLU[1](AffineTransform[1<-128](InputSlice[128(0:128)]))",
            "not the exact description",
        ),
        // Buckets that do not divide 32.
        (
            "Features=All[768->64x2],Network=MaterialBuckets[3](AffineTransform[3<-128](InputSlice[128(0:128)]))",
            "3 output buckets",
        ),
        // A bucket count the output layer does not have.
        (
            "Features=All[768->64x2],Network=MaterialBuckets[8](AffineTransform[1<-128](InputSlice[128(0:128)]))",
            "outermost layer",
        ),
        (
            "Features=All[768->64x2],Network=MaterialBuckets[x](AffineTransform[1<-128](InputSlice[128(0:128)]))",
            "'x' is not a size",
        ),
    ];
    for (description, reason) in refused {
        let err = Architecture::from_description(description).unwrap_err();
        assert!(err.to_string().contains(reason), "{description}: {err}");
    }
}

#[test]
fn screlu_and_bucketed_files_round_trip() {
    for (activation, buckets) in [
        (Activation::SquaredClippedRelu, 1),
        (Activation::ClippedRelu, 8),
        (Activation::SquaredClippedRelu, 8),
    ] {
        let arch = all64(activation, buckets);
        let net = random_network(&arch, 11).unwrap();
        let bytes = net.to_bytes();
        assert_eq!(bytes.len() as u64, arch.file_size());
        let back = Network::from_bytes(&bytes, "variant.nnue").unwrap();
        assert_eq!(back.architecture(), &arch);
        assert_eq!(back.to_bytes(), bytes);
    }
}

#[test]
fn screlu_dot_agrees_with_scalar_and_its_definition() {
    let mut state = 0x5EED_u64;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as i64
    };
    for len in [0, 1, 15, 16, 17, 31, 32, 33, 64, 100, 512, 1024] {
        let acc: Vec<i16> = (0..len).map(|_| (next() % 400 - 150) as i16).collect();
        let weights: Vec<i8> = (0..len).map(|_| (next() % 256 - 128) as i8).collect();
        let definition = acc
            .iter()
            .zip(&weights)
            .map(|(&a, &w)| {
                let c = i64::from(a.clamp(0, 127));
                c * c * i64::from(w)
            })
            .sum::<i64>();
        let scalar = Kernel::Scalar.screlu_dot(&acc, &weights);
        assert_eq!(i64::from(scalar), definition, "len {len}");
        for kernel in Kernel::available() {
            assert_eq!(
                kernel.screlu_dot(&acc, &weights),
                scalar,
                "{kernel:?} len {len}"
            );
        }
    }
    // The extremes: every value clamps to 127 and meets -128.
    let acc = vec![i16::MAX; 1024];
    let weights = vec![i8::MIN; 1024];
    for kernel in Kernel::available() {
        assert_eq!(
            kernel.screlu_dot(&acc, &weights),
            Kernel::Scalar.screlu_dot(&acc, &weights)
        );
    }
}
