//! Reading and writing `.nnue` files (formats.md section 4).
//!
//! Layout, all little-endian: version, file hash, description length and bytes,
//! transformer hash, transformer biases (i16) and weights (i16, feature-major),
//! network hash, then for each affine layer its biases (i32) and padded weight rows
//! (i8). Nothing may follow. Stockfish 12 HalfKP 256x2-32-32 files are recognised by
//! their file hash alone (Stockfish never compares the description); every other
//! architecture is taken from its description, and its hashes must agree.

use std::path::Path;

use super::aligned::Aligned;
use super::arch::{Architecture, MAX_DESCRIPTION_LEN, VERSION};
use super::error::NetworkError;
use super::network::{AffineLayer, Network};
use crate::cli::quote::one_line;

/// A bounds-checked little-endian reader that reports offsets (also reads
/// Stockfish 15.1's layout, [`super::halfka::file`]).
pub(crate) struct Reader<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) pos: usize,
    pub(crate) source: &'a str,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`, naming them `source` in its errors.
    pub(crate) fn new(bytes: &'a [u8], source: &'a str) -> Reader<'a> {
        Reader {
            bytes,
            pos: 0,
            source,
        }
    }

    pub(crate) fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], NetworkError> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.bytes.len());
        match end {
            Some(end) => {
                let slice = &self.bytes[self.pos..end];
                self.pos = end;
                Ok(slice)
            }
            None => Err(NetworkError::Truncated {
                source_name: self.source.to_string(),
                what,
                offset: self.pos as u64,
                end: self.pos as u64 + n as u64,
                len: self.bytes.len() as u64,
            }),
        }
    }

    pub(crate) fn u32(&mut self, what: &'static str) -> Result<u32, NetworkError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// Reads a u32 and checks it against `expected`.
    pub(crate) fn expect_u32(
        &mut self,
        expected: u32,
        what: &'static str,
    ) -> Result<(), NetworkError> {
        let offset = self.pos as u64;
        let found = self.u32(what)?;
        if found != expected {
            return Err(NetworkError::Mismatch {
                source_name: self.source.to_string(),
                what,
                offset,
                expected,
                found,
            });
        }
        Ok(())
    }

    pub(crate) fn i16s(
        &mut self,
        n: usize,
        what: &'static str,
    ) -> Result<Aligned<i16>, NetworkError> {
        let b = self.take(n * 2, what)?;
        let mut out = Aligned::new(n);
        for (o, c) in out.iter_mut().zip(b.chunks_exact(2)) {
            *o = i16::from_le_bytes([c[0], c[1]]);
        }
        Ok(out)
    }

    pub(crate) fn i32s(&mut self, n: usize, what: &'static str) -> Result<Vec<i32>, NetworkError> {
        let b = self.take(n * 4, what)?;
        Ok(b.chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }

    pub(crate) fn i8s(
        &mut self,
        n: usize,
        what: &'static str,
    ) -> Result<Aligned<i8>, NetworkError> {
        let b = self.take(n, what)?;
        let mut out = Aligned::new(n);
        for (o, &v) in out.iter_mut().zip(b) {
            *o = v as i8;
        }
        Ok(out)
    }
}

/// Most characters of a description's problem an error shows.
const PROBLEM_CHARS: usize = 200;

/// Version word of Stockfish 14 and later (HalfKAv2 and its successors).
const VERSION_SF14: u32 = 0x7AF3_2F20;

/// The version word: ours, a later Stockfish's, or not a `.nnue` file at all.
fn check_version(r: &mut Reader<'_>) -> Result<(), NetworkError> {
    let not_nnue = |detail: String| NetworkError::NotNnue {
        source_name: r.source.to_string(),
        detail,
    };
    let Some(first) = r.bytes.first_chunk::<4>() else {
        return Err(not_nnue(format!(
            "it has {} bytes; a .nnue file starts with the 4-byte version 0x{VERSION:08X}",
            r.bytes.len()
        )));
    };
    let found = u32::from_le_bytes(*first);
    if found == VERSION_SF14 {
        return Err(NetworkError::UnsupportedVersion {
            source_name: r.source.to_string(),
            found,
            expected: VERSION,
            format: "Stockfish 14 and later",
        });
    }
    if found != VERSION {
        return Err(not_nnue(format!(
            "its first 4 bytes read 0x{found:08X}; a .nnue file starts with the version 0x{VERSION:08X}"
        )));
    }
    r.pos = 4;
    Ok(())
}

/// What the header after the version word says: the architecture, and the
/// description bytes as stored (kept so a network saves back byte for byte).
struct Header<'a> {
    arch: Architecture,
    description: &'a [u8],
}

/// Reads the version, the file hash and the description, and finds the
/// architecture: Stockfish 12's HalfKP 256x2-32-32 by its file hash alone (as
/// Stockfish does), any other from its description, whose hash must then be
/// the file's.
fn read_header<'a>(r: &mut Reader<'a>) -> Result<Header<'a>, NetworkError> {
    let source = r.source;
    check_version(r)?;
    let file_hash_offset = r.pos as u64;
    let file_hash = r.u32("file hash")?;
    let description_offset = r.pos as u64;
    let description_len = r.u32("description length")? as usize;
    if description_len > MAX_DESCRIPTION_LEN {
        return Err(NetworkError::Description {
            source_name: source.to_string(),
            offset: description_offset,
            problem: format!(
                "description length {description_len} is over the limit of {MAX_DESCRIPTION_LEN}"
            ),
            description: String::new(),
        });
    }
    let raw = r.take(description_len, "description")?;
    let standard = Architecture::halfkp_256();
    if file_hash == standard.hashes().file {
        return Ok(Header {
            arch: standard,
            description: raw,
        });
    }
    let description = String::from_utf8_lossy(raw).into_owned();
    let arch = match Architecture::from_description(&description) {
        Ok(arch) => arch,
        Err(e) => {
            return Err(NetworkError::Description {
                source_name: source.to_string(),
                offset: description_offset + 4,
                // It quotes the description's words, which may hold any byte.
                problem: one_line(&e.to_string(), PROBLEM_CHARS),
                description,
            });
        }
    };
    // A file written when `MB`/`MC` named today's `MBp`/`MCp` has their hash.
    let arch = match arch.legacy() {
        Some(legacy) if arch.hashes().file != file_hash && legacy.hashes().file == file_hash => {
            legacy
        }
        _ => arch,
    };
    let expected = arch.hashes().file;
    if expected != file_hash {
        return Err(NetworkError::Mismatch {
            source_name: source.to_string(),
            what: "file hash",
            offset: file_hash_offset,
            expected,
            found: file_hash,
        });
    }
    Ok(Header {
        arch,
        description: raw,
    })
}

/// Checks that the file is exactly as long as `header` says, before anything
/// is allocated, so a corrupt header cannot make us reserve gigabytes.
fn check_size(r: &Reader<'_>, header: &Header<'_>) -> Result<(), NetworkError> {
    let arch = &header.arch;
    let len = r.bytes.len() as u64;
    let expected_len =
        arch.file_size() - arch.description().len() as u64 + header.description.len() as u64;
    if len < expected_len {
        return Err(NetworkError::Truncated {
            source_name: r.source.to_string(),
            what: "network parameters",
            offset: r.pos as u64,
            end: expected_len,
            len,
        });
    }
    if len > expected_len {
        return Err(NetworkError::TrailingBytes {
            source_name: r.source.to_string(),
            offset: expected_len,
            len,
        });
    }
    Ok(())
}

/// The parameters that follow the header, as stored.
struct Parameters {
    ft_biases: Aligned<i16>,
    ft_weights: Aligned<i16>,
    layers: Vec<AffineLayer>,
}

/// Reads the feature transformer and the affine layers of `arch`, each part
/// behind the hash Stockfish writes before it.
fn read_parameters(r: &mut Reader<'_>, arch: &Architecture) -> Result<Parameters, NetworkError> {
    let hashes = arch.hashes();
    r.expect_u32(hashes.transformer, "feature transformer hash")?;
    let half = arch.half_dims;
    let ft_biases = r.i16s(half, "feature transformer biases")?;
    let ft_weights = r.i16s(arch.inputs * half, "feature transformer weights")?;
    r.expect_u32(hashes.network, "network hash")?;
    let mut layers = Vec::new();
    for (inputs, outputs) in arch.affine_layers() {
        let biases = r.i32s(outputs, "affine biases")?;
        let weights = r.i8s(outputs * super::arch::padded(inputs), "affine weights")?;
        layers.push(AffineLayer {
            inputs,
            outputs,
            biases,
            weights,
        });
    }
    Ok(Parameters {
        ft_biases,
        ft_weights,
        layers,
    })
}

impl Network {
    /// Reads a network from the bytes of a `.nnue` file; `source` names the file in
    /// error messages.
    pub fn from_bytes(bytes: &[u8], source: &str) -> Result<Network, NetworkError> {
        let mut r = Reader {
            bytes,
            pos: 0,
            source,
        };
        let header = read_header(&mut r)?;
        check_size(&r, &header)?;
        let Parameters {
            ft_biases,
            ft_weights,
            layers,
        } = read_parameters(&mut r, &header.arch)?;
        let Header {
            arch,
            description: raw,
        } = header;
        if r.pos != bytes.len() {
            return Err(NetworkError::TrailingBytes {
                source_name: source.to_string(),
                offset: r.pos as u64,
                len: bytes.len() as u64,
            });
        }
        let net = Network::assemble(
            arch,
            Some(raw.to_vec()),
            ft_biases,
            ft_weights,
            layers,
            source,
        )?;
        super::range::check_range(&net).map_err(|error| NetworkError::Range {
            source_name: source.to_string(),
            error,
        })?;
        Ok(net)
    }

    /// Reads a `.nnue` file.
    pub fn load(path: &Path) -> Result<Network, NetworkError> {
        let source = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|error| NetworkError::Io {
            source_name: source.clone(),
            error,
        })?;
        Network::from_bytes(&bytes, &source)
    }

    /// The bytes of the `.nnue` file of this network.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.arch.file_size() as usize);
        let hashes = self.hashes;
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&hashes.file.to_le_bytes());
        out.extend_from_slice(&(self.description_bytes.len() as u32).to_le_bytes());
        out.extend_from_slice(&self.description_bytes);
        out.extend_from_slice(&hashes.transformer.to_le_bytes());
        out.extend(self.ft_biases.iter().flat_map(|v| v.to_le_bytes()));
        out.extend(self.ft_weights.iter().flat_map(|v| v.to_le_bytes()));
        out.extend_from_slice(&hashes.network.to_le_bytes());
        for layer in &self.layers {
            out.extend(layer.biases.iter().flat_map(|v| v.to_le_bytes()));
            out.extend(layer.weights.iter().map(|&v| v as u8));
        }
        out
    }

    /// Writes the `.nnue` file of this network.
    pub fn save(&self, path: &Path) -> Result<(), NetworkError> {
        std::fs::write(path, self.to_bytes()).map_err(|error| NetworkError::Io {
            source_name: path.display().to_string(),
            error,
        })
    }
}
