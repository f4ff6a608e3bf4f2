//! Architecture of a network: feature set, transformer width and hidden layers,
//! its description string and its hashes.
//!
//! Networks are `N -> M x2 -> H1 -> … -> 1`: a feature transformer of `N` inputs
//! and `M` outputs per perspective, then affine layers each followed by
//! ClippedReLU, and a final affine layer with one output. Stockfish 12's
//! HalfKP 256x2-32-32 is `41024 -> 256x2 -> 32 -> 32 -> 1`.
//!
//! # Description string
//! Stockfish's own notation, for every architecture:
//! `Features=<name>[<N>-><M>x2],Network=AffineTransform[1<-<Hk>](ClippedReLU[<Hk>](
//! … AffineTransform[<H1><-<2M>](InputSlice[<2M>(0:<2M>)])…))` where `<name>` is
//! `HalfKP(Friend)` for HalfKP (so the 177-byte standard string comes out exactly)
//! and the canonical feature-set name otherwise (e.g. `All+H+V`).
//!
//! # Hashes
//! Stockfish's formulas (formats.md 4.3) applied to any sizes: feature hash ^ 2M for
//! the transformer; InputSlice, AffineTransform and ClippedReLU hashes chained for
//! the network; their xor at the top. The feature hash is Stockfish's `0x5D69D5B8`
//! for HalfKP; for every other set it is the 32-bit FNV-1a hash of the canonical
//! name's bytes (`0x811C9DC5` offset basis, `0x01000193` prime), so any two sets with
//! different names get different hashes and the hash is reproducible from the name.
//! The one exception is the mobility rename: `MBp` and `MCp` hash as `MB` and `MC`
//! (the names files written before the rename give them), and the thesis' `MB` and
//! `MC` as `MB#thesis` and `MC#thesis` ([`crate::features::spec::hash_name`]). A
//! file whose description says `MB` or `MC` is read as the thesis block when its
//! hash says so, and as `MBp`/`MCp` otherwise (for `MC` its feature count, 160
//! instead of 206, tells as well).
//!
//! # SCReLU and output buckets
//! Two additions Stockfish 12 does not have, written only when a net uses them,
//! so every other description (and hash) is unchanged. A transformer with the
//! squared clipped ReLU ([`Activation`]) wraps the slice:
//! `…(SCReLU[<2M>](InputSlice[<2M>(0:<2M>)]))`, and its network hash chains
//! [`SCRELU_HASH`] after the slice's. A net with `B > 1` output buckets
//! ([`super::buckets`]) has an output layer of `B` outputs wrapped as
//! `Network=MaterialBuckets[<B>](AffineTransform[<B><-…](…))`, and its network
//! hash is xored with [`BUCKETS_HASH`]` + B` last. E.g. an All 768→512x2→1 net with both:
//! `Features=All[768->512x2],Network=MaterialBuckets[8](AffineTransform[8<-1024](SCReLU[1024](InputSlice[1024(0:1024)])))`.

use super::activation::Activation;
use super::buckets;
use crate::features::{FeatureSet, FeatureSetError};

/// Why sizes or a description do not make a supported architecture.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArchitectureError {
    /// The feature-set name does not parse.
    #[error(transparent)]
    FeatureSet(#[from] FeatureSetError),
    /// The feature count disagrees with the named set.
    #[error("feature set {name} has {actual} features, the architecture says {stated}")]
    FeatureCount {
        name: String,
        actual: usize,
        stated: usize,
    },
    /// The transformer width is zero or too large for the file's types.
    #[error("transformer width {0} is out of range (1 to {MAX_WIDTH})")]
    TransformerWidth(usize),
    /// A hidden layer width is zero or too large.
    #[error("hidden layer width {0} is out of range (1 to {MAX_WIDTH})")]
    HiddenWidth(usize),
    /// More hidden layers than the reader accepts.
    #[error("{0} hidden layers (at most {MAX_HIDDEN_LAYERS})")]
    TooManyLayers(usize),
    /// An output bucket count that does not split the piece counts evenly.
    #[error("{0} output buckets (expected one of 1, 2, 4, 8, 16, 32)")]
    OutputBuckets(usize),
    /// The description is not in the form [`Architecture::description`] writes.
    #[error("{0}")]
    Malformed(&'static str),
    /// A size in the description is not a number.
    #[error("'{0}' is not a size")]
    BadSize(String),
    /// The description parses but is not exactly the one this architecture writes.
    #[error("it is not the exact description of {summary} (expected {expected:?})")]
    NotExact { summary: String, expected: String },
}

/// Largest transformer or hidden width (sizes are written as u32 hashes of `2M`).
pub const MAX_WIDTH: usize = 1 << 16;
/// Most hidden layers a description may have.
pub const MAX_HIDDEN_LAYERS: usize = 8;

/// Version word of Stockfish 12/13 `.nnue` files.
pub const VERSION: u32 = 0x7AF3_2F16;
/// Stockfish's HalfKP(Friend) feature hash.
pub const HALFKP_FEATURE_HASH: u32 = 0x5D69_D5B9 ^ 1;
/// Longest description accepted when reading (Stockfish's is 177 bytes).
pub const MAX_DESCRIPTION_LEN: usize = 4096;
/// Network hash term of an SCReLU transformer: FNV-1a of `SCReLU`.
pub const SCRELU_HASH: u32 = 0xACD6_612D;
/// Network hash term of material output buckets (plus their count): FNV-1a of
/// `MaterialBuckets`.
pub const BUCKETS_HASH: u32 = 0x92A3_AED7;
/// The description's marker of an SCReLU transformer.
const SCRELU_TAG: &str = "SCReLU[";
/// The description's marker of material output buckets.
const BUCKETS_TAG: &str = "Network=MaterialBuckets[";

/// The three hashes written into a file.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Hashes {
    /// Top-level hash (file offset 4) = transformer ^ network.
    pub file: u32,
    /// Feature-transformer hash (after the description).
    pub transformer: u32,
    /// Network hash (after the transformer parameters).
    pub network: u32,
}

/// Sizes of a network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Architecture {
    /// Canonical feature-set name (`HalfKP`, `All+H+V`, …).
    pub feature_set: String,
    /// Number of features `N`.
    pub inputs: usize,
    /// Transformer outputs per perspective `M`.
    pub half_dims: usize,
    /// Hidden layer widths, first to last (Stockfish 12: `[32, 32]`).
    pub hidden: Vec<usize>,
    /// The transformer's activation (ClippedReLU unless the net says SCReLU).
    pub activation: Activation,
    /// Output layers picked by material ([`super::buckets`]); 1 for a plain net.
    pub output_buckets: usize,
}

/// Rows of int8 weights are padded to a multiple of 32 inputs, as Stockfish does.
pub const fn padded(inputs: usize) -> usize {
    inputs.div_ceil(32) * 32
}

/// 32-bit FNV-1a.
pub fn fnv1a32(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811C_9DC5u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

fn affine_hash(prev: u32, outputs: usize) -> u32 {
    let mut h = 0xCC03_DAE4u32.wrapping_add(outputs as u32);
    h ^= prev >> 1;
    h ^= prev << 31;
    h
}

fn clipped_relu_hash(prev: u32) -> u32 {
    0x538D_24C7u32.wrapping_add(prev)
}

/// The bucket count a description states (`Network=MaterialBuckets[<B>](…)`),
/// 1 when it has none.
fn described_buckets(description: &str) -> Result<usize, ArchitectureError> {
    let Some(at) = description.find(BUCKETS_TAG) else {
        return Ok(1);
    };
    let rest = &description[at + BUCKETS_TAG.len()..];
    let end = rest
        .find(']')
        .ok_or(ArchitectureError::Malformed("MaterialBuckets without ']'"))?;
    rest[..end]
        .parse()
        .map_err(|_| ArchitectureError::BadSize(rest[..end].to_string()))
}

impl Architecture {
    /// Stockfish 12's HalfKP 256x2-32-32.
    pub fn halfkp_256() -> Architecture {
        Architecture {
            feature_set: "HalfKP".to_string(),
            inputs: 41024,
            half_dims: 256,
            hidden: vec![32, 32],
            activation: Activation::ClippedRelu,
            output_buckets: 1,
        }
    }

    /// An architecture for the feature set named `spec` (its size is taken from the
    /// set), e.g. `Architecture::new("All", 512, &[32])` for All 768->512x2-32-1.
    pub fn new(
        spec: &str,
        half_dims: usize,
        hidden: &[usize],
    ) -> Result<Architecture, FeatureSetError> {
        let set = FeatureSet::parse(spec)?;
        Ok(Architecture {
            feature_set: set.name().to_string(),
            inputs: set.size(),
            half_dims,
            hidden: hidden.to_vec(),
            activation: Activation::ClippedRelu,
            output_buckets: 1,
        })
    }

    /// This architecture with the transformer activation `activation`.
    pub fn with_activation(self, activation: Activation) -> Architecture {
        Architecture { activation, ..self }
    }

    /// This architecture with `count` material output buckets (1: none).
    pub fn with_output_buckets(self, count: usize) -> Architecture {
        Architecture {
            output_buckets: count,
            ..self
        }
    }

    /// `(inputs, outputs)` of every affine layer, hidden ones first, output last
    /// (one output per bucket).
    pub fn affine_layers(&self) -> Vec<(usize, usize)> {
        let mut layers = Vec::with_capacity(self.hidden.len() + 1);
        let mut prev = 2 * self.half_dims;
        let output = [self.output_buckets];
        for &h in self.hidden.iter().chain(&output) {
            layers.push((prev, h));
            prev = h;
        }
        layers
    }

    /// The feature name as written in the description.
    fn described_feature_name(&self) -> String {
        if self.feature_set == "HalfKP" {
            "HalfKP(Friend)".to_string()
        } else {
            self.feature_set.clone()
        }
    }

    /// The description string (see the module docs).
    pub fn description(&self) -> String {
        self.description_named(&self.described_feature_name())
    }

    /// The description with `feature_name` in the place of the feature set's name
    /// (a file of a renamed block keeps the name it was written with).
    fn description_named(&self, feature_name: &str) -> String {
        let slice = 2 * self.half_dims;
        let mut net = format!("InputSlice[{slice}(0:{slice})]");
        if self.activation == Activation::SquaredClippedRelu {
            net = format!("{SCRELU_TAG}{slice}]({net})");
        }
        let layers = self.affine_layers();
        for (i, &(inputs, outputs)) in layers.iter().enumerate() {
            net = format!("AffineTransform[{outputs}<-{inputs}]({net})");
            if i + 1 < layers.len() {
                net = format!("ClippedReLU[{outputs}]({net})");
            }
        }
        if self.output_buckets > 1 {
            net = format!("MaterialBuckets[{}]({net})", self.output_buckets);
        }
        format!(
            "Features={}[{}->{}x2],Network={}",
            feature_name, self.inputs, self.half_dims, net
        )
    }

    /// Parses a description written by [`Architecture::description`]; the result
    /// is checked by regenerating the string, so anything but an exact description
    /// of a supported architecture is refused.
    pub fn from_description(description: &str) -> Result<Architecture, ArchitectureError> {
        use ArchitectureError::Malformed;
        let rest = description
            .strip_prefix("Features=")
            .ok_or(Malformed("it does not start with 'Features='"))?;
        let open = rest
            .find('[')
            .ok_or(Malformed("no '[' after the feature name"))?;
        let described_name = &rest[..open];
        let feature_set = match described_name {
            "HalfKP(Friend)" => "HalfKP".to_string(),
            name => FeatureSet::parse(name)?.name().to_string(),
        };
        let rest = &rest[open + 1..];
        let close = rest
            .find(']')
            .ok_or(Malformed("no ']' after the feature sizes"))?;
        let sizes = Malformed("feature sizes are not '<N>-><M>x2'");
        let (inputs, half) = rest[..close].split_once("->").ok_or(sizes.clone())?;
        let half = half.strip_suffix("x2").ok_or(sizes)?;
        let number = |s: &str| {
            s.parse::<usize>()
                .map_err(|_| ArchitectureError::BadSize(s.to_string()))
        };
        let inputs = number(inputs)?;
        let half_dims = number(half)?;
        // Affine layers appear outermost (output) first.
        let mut outputs_outer_first = Vec::new();
        let mut scan = &rest[close..];
        while let Some(at) = scan.find("AffineTransform[") {
            scan = &scan[at + "AffineTransform[".len()..];
            let end = scan
                .find("<-")
                .ok_or(Malformed("AffineTransform without '<-'"))?;
            outputs_outer_first.push(number(&scan[..end])?);
        }
        let output_buckets = described_buckets(description)?;
        if outputs_outer_first.first() != Some(&output_buckets) {
            return Err(Malformed(
                "the outermost layer must be AffineTransform[<buckets><-…] (1 without buckets)",
            ));
        }
        let hidden: Vec<usize> = outputs_outer_first[1..].iter().rev().copied().collect();
        let activation = if description.contains(SCRELU_TAG) {
            Activation::SquaredClippedRelu
        } else {
            Activation::ClippedRelu
        };
        let arch = Architecture {
            feature_set,
            inputs,
            half_dims,
            hidden,
            activation,
            output_buckets,
        };
        // A file written when `MB`/`MC` named today's `MBp`/`MCp` says `MC` with
        // 160 features: read it as the block it was written for.
        let checked = arch.validate().map(|()| arch.clone());
        let arch = match (checked, arch.legacy()) {
            (Ok(arch), _) => arch,
            (Err(ArchitectureError::FeatureCount { .. }), Some(legacy))
                if legacy.validate().is_ok() =>
            {
                legacy
            }
            (Err(e), _) => return Err(e),
        };
        let expected = arch.description_named(described_name);
        if expected != description {
            return Err(ArchitectureError::NotExact {
                summary: arch.summary(),
                expected: arch.description(),
            });
        }
        Ok(arch)
    }

    /// This architecture with every `MB`/`MC` block read as it was before the thesis
    /// blocks took those names (`MBp`/`MCp`), if the set has any; see
    /// [`crate::features::spec::legacy_name`]. Files of either kind say `MB` in
    /// their description; their hashes tell them apart (the module docs).
    pub fn legacy(&self) -> Option<Architecture> {
        let feature_set = crate::features::spec::legacy_name(&self.feature_set)?;
        Some(Architecture {
            feature_set,
            ..self.clone()
        })
    }

    /// Checks sizes: feature count matches the set, no zero widths, sizes that fit
    /// the integer types used in the file.
    pub fn validate(&self) -> Result<(), ArchitectureError> {
        let set = FeatureSet::parse(&self.feature_set)?;
        if set.size() != self.inputs {
            return Err(ArchitectureError::FeatureCount {
                name: set.name().to_string(),
                actual: set.size(),
                stated: self.inputs,
            });
        }
        if self.half_dims == 0 || self.half_dims > MAX_WIDTH {
            return Err(ArchitectureError::TransformerWidth(self.half_dims));
        }
        if let Some(&bad) = self.hidden.iter().find(|&&h| h == 0 || h > MAX_WIDTH) {
            return Err(ArchitectureError::HiddenWidth(bad));
        }
        if self.hidden.len() > MAX_HIDDEN_LAYERS {
            return Err(ArchitectureError::TooManyLayers(self.hidden.len()));
        }
        if !buckets::valid_count(self.output_buckets) {
            return Err(ArchitectureError::OutputBuckets(self.output_buckets));
        }
        Ok(())
    }

    /// Short form such as `HalfKP 41024->256x2-32-32-1`, followed by
    /// ` screlu` and ` buckets=<B>` for the nets that have them.
    pub fn summary(&self) -> String {
        let mut s = format!("{} {}->{}x2", self.feature_set, self.inputs, self.half_dims);
        for h in self.hidden.iter().chain(std::iter::once(&1)) {
            s.push_str(&format!("-{h}"));
        }
        s.push_str(&self.options_suffix());
        s
    }

    /// ` screlu` and ` buckets=<B>` for the options a net uses (empty for a
    /// plain net), as [`Self::summary`] ends.
    pub fn options_suffix(&self) -> String {
        let mut s = String::new();
        if self.activation != Activation::ClippedRelu {
            s.push_str(&format!(" {}", self.activation));
        }
        if self.output_buckets > 1 {
            s.push_str(&format!(" buckets={}", self.output_buckets));
        }
        s
    }

    /// The hashes Stockfish's formulas give for this architecture.
    pub fn hashes(&self) -> Hashes {
        let feature = if self.feature_set == "HalfKP" {
            HALFKP_FEATURE_HASH
        } else {
            fnv1a32(crate::features::spec::hash_name(&self.feature_set).as_bytes())
        };
        let slice = 2 * self.half_dims as u32;
        let transformer = feature ^ slice;
        let layers = self.affine_layers();
        let mut network = 0xEC42_E90Du32 ^ slice;
        if self.activation == Activation::SquaredClippedRelu {
            network = SCRELU_HASH.wrapping_add(network);
        }
        for (i, &(_, outputs)) in layers.iter().enumerate() {
            network = affine_hash(network, outputs);
            if i + 1 < layers.len() {
                network = clipped_relu_hash(network);
            }
        }
        if self.output_buckets > 1 {
            network ^= BUCKETS_HASH.wrapping_add(self.output_buckets as u32);
        }
        Hashes {
            file: transformer ^ network,
            transformer,
            network,
        }
    }

    /// Exact size in bytes of a file of this architecture (saturating, so absurd
    /// sizes compare unequal to any real file instead of overflowing).
    pub fn file_size(&self) -> u64 {
        let description = self.description().len() as u64;
        let mut size = 12 + description + 4;
        let half = self.half_dims as u64;
        size = size.saturating_add(2 * half);
        size = size.saturating_add((self.inputs as u64).saturating_mul(half).saturating_mul(2));
        size += 4;
        for (inputs, outputs) in self.affine_layers() {
            let outputs = outputs as u64;
            size = size.saturating_add(4 * outputs);
            size = size.saturating_add(outputs.saturating_mul(padded(inputs) as u64));
        }
        size
    }
}
