//! Stockfish 15.1's `.nnue` layout, all little-endian, as its `read_parameters`
//! and `write_parameters` (`evaluate_nnue.cpp`) handle it:
//!
//! ```text
//! u32 version 0x7AF32F20, u32 file hash, u32 description length, description
//! u32 transformer hash, i16 biases[w], i16 weights[22528][w], i32 psqt[22528][8]
//! 8 times: u32 stack hash,
//!          fc_0: i32 biases[16], i8 weights[16][w]
//!          fc_1: i32 biases[32], i8 weights[32][32]   (30 inputs padded to 32)
//!          fc_2: i32 biases[1],  i8 weights[1][32]
//! ```
//!
//! Nothing may follow. 15.1 reads and writes every tensor plainly: the LEB128
//! compression of `.nnue` tensors came with Stockfish 16 and is not part of this
//! layout. The width `w` is found from the file's length and must give the
//! stored hashes (15.1 itself accepts only `w = 1024`).

use std::path::Path;

use super::network::HalfKaNetwork;
use super::shape::{padded, Shape, L1, L2, STACKS, VERSION};
use super::stack::{Affine, LayerStack};
use super::transformer::Transformer;
use crate::nnue::error::NetworkError;
use crate::nnue::io::Reader;

/// Bytes before the description: version, file hash, description length.
const HEADER_LEN: usize = 12;

/// Whether `bytes` start with 15.1's version word (a HalfKAv2_hm-era file).
pub fn has_sf15_version(bytes: &[u8]) -> bool {
    bytes.first_chunk::<4>().map(|b| u32::from_le_bytes(*b)) == Some(VERSION)
}

impl HalfKaNetwork {
    /// Reads a 15.1-layout net from `path`.
    pub fn load(path: &Path) -> Result<HalfKaNetwork, NetworkError> {
        let source = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|error| NetworkError::Io {
            source_name: source.clone(),
            error,
        })?;
        HalfKaNetwork::from_bytes(&bytes, &source)
    }

    /// Parses a 15.1-layout net; `source` names it in errors.
    pub fn from_bytes(bytes: &[u8], source: &str) -> Result<HalfKaNetwork, NetworkError> {
        let mut r = Reader::new(bytes, source);
        r.expect_u32(VERSION, "version (Stockfish 15.1 layout)")?;
        let hash_offset = r.pos;
        let file_hash = r.u32("file hash")?;
        let description_len = r.u32("description length")? as usize;
        let description = r.take(description_len, "description")?.to_vec();
        let body = bytes.len() - r.pos;
        let shape = Shape::from_body_len(body).ok_or_else(|| NetworkError::Parameters {
            source_name: source.to_string(),
            problem: format!(
                "{body} bytes after the {description_len}-byte description fit no HalfKAv2_hm \
                 width (Stockfish 15.1's 1024-wide net has {})",
                Shape::SF15_1.body_len()
            ),
        })?;
        if file_hash != shape.file_hash() {
            return Err(NetworkError::Mismatch {
                source_name: source.to_string(),
                what: "file hash (HalfKAv2_hm)",
                offset: hash_offset as u64,
                expected: shape.file_hash(),
                found: file_hash,
            });
        }
        let transformer = read_transformer(&mut r, shape)?;
        let mut stacks = Vec::with_capacity(STACKS);
        for _ in 0..STACKS {
            r.expect_u32(shape.stack_hash(), "layer stack hash")?;
            stacks.push(read_stack(&mut r, shape)?);
        }
        debug_assert_eq!(r.pos, bytes.len(), "the length was checked above");
        Ok(HalfKaNetwork {
            description,
            transformer,
            stacks,
        })
    }

    /// The file bytes 15.1's `export_net` would write for this net.
    pub fn to_bytes(&self) -> Vec<u8> {
        let shape = self.shape();
        let mut out = Vec::with_capacity(HEADER_LEN + self.description.len() + shape.body_len());
        let u32s = |out: &mut Vec<u8>, v: u32| out.extend_from_slice(&v.to_le_bytes());
        u32s(&mut out, VERSION);
        u32s(&mut out, shape.file_hash());
        u32s(&mut out, self.description.len() as u32);
        out.extend_from_slice(&self.description);
        u32s(&mut out, shape.transformer_hash());
        let t = &self.transformer;
        t.biases
            .iter()
            .for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
        t.weights
            .iter()
            .for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
        t.psqt
            .iter()
            .for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
        for stack in &self.stacks {
            u32s(&mut out, shape.stack_hash());
            for layer in [&stack.fc0, &stack.fc1, &stack.fc2] {
                layer
                    .biases
                    .iter()
                    .for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
                out.extend(layer.weights.iter().map(|&w| w as u8));
            }
        }
        out
    }
}

/// The transformer: its hash, biases, weights and PSQT weights.
fn read_transformer(r: &mut Reader<'_>, shape: Shape) -> Result<Transformer, NetworkError> {
    r.expect_u32(shape.transformer_hash(), "transformer hash")?;
    let (w, f) = (shape.width, shape.features());
    Ok(Transformer {
        shape,
        biases: r.i16s(w, "transformer biases")?,
        weights: r.i16s(w * f, "transformer weights")?,
        psqt: r.i32s(STACKS * f, "transformer PSQT weights")?,
    })
}

/// One affine layer of `outputs` rows of `inputs` (padded) weights.
fn read_affine(
    r: &mut Reader<'_>,
    inputs: usize,
    outputs: usize,
    what: &'static str,
) -> Result<Affine, NetworkError> {
    Ok(Affine {
        biases: r.i32s(outputs, what)?,
        weights: r.i8s(outputs * padded(inputs), what)?,
    })
}

/// One layer stack after its hash.
fn read_stack(r: &mut Reader<'_>, shape: Shape) -> Result<LayerStack, NetworkError> {
    Ok(LayerStack {
        fc0: read_affine(r, shape.width, L1 + 1, "fc_0 parameters")?,
        fc1: read_affine(r, 2 * L1, L2, "fc_1 parameters")?,
        fc2: read_affine(r, L2, 1, "fc_2 parameters")?,
    })
}
