//! A loaded `.nnue` file of either kind the engine plays with: a HalfKP-era net
//! (Stockfish 12's layout and the toolkit's own, [`Network`]) or a Stockfish 15.1
//! HalfKAv2_hm net ([`HalfKaNetwork`]). The kind is told by the file's version
//! word (15.1's is `0x7AF32F20`); each reader then checks its hashes.

use std::path::Path;
use std::sync::Arc;

use nnue_core::nnue::halfka::{has_sf15_version, HalfKaNetwork};
use nnue_core::nnue::{Network, NetworkError};
use shakmaty::Chess;

use super::EvalKind;

/// A net `EvalFile` loaded.
#[derive(Clone, Debug)]
pub enum LoadedNet {
    /// A HalfKP-era net (Stockfish 12 layout).
    HalfKp(Arc<Network>),
    /// A Stockfish 15.1 net.
    HalfKa(Arc<HalfKaNetwork>),
}

impl LoadedNet {
    /// Reads `path`, choosing the reader by the file's version word.
    pub fn load(path: &Path) -> Result<LoadedNet, NetworkError> {
        let source = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|error| NetworkError::Io {
            source_name: source.clone(),
            error,
        })?;
        LoadedNet::from_bytes(&bytes, &source)
    }

    /// Parses `bytes` (named `source` in errors) with the reader its version asks for.
    pub fn from_bytes(bytes: &[u8], source: &str) -> Result<LoadedNet, NetworkError> {
        if has_sf15_version(bytes) {
            let net = HalfKaNetwork::from_bytes(bytes, source)?;
            Ok(LoadedNet::HalfKa(Arc::new(net)))
        } else {
            Ok(LoadedNet::HalfKp(Arc::new(Network::from_bytes(
                bytes, source,
            )?)))
        }
    }

    /// The architecture in a few words.
    pub fn summary(&self) -> String {
        match self {
            LoadedNet::HalfKp(net) => net.architecture().summary(),
            LoadedNet::HalfKa(net) => net.summary(),
        }
    }

    /// The raw value `eval` prints: internal units, side to move (Stockfish 12's
    /// for HalfKP nets, 15.1's `NNUE::evaluate(pos, false)` for HalfKAv2_hm ones).
    pub fn raw_value(&self, pos: &Chess) -> i32 {
        match self {
            LoadedNet::HalfKp(net) => nnue_core::nnue::evaluate(net, pos),
            LoadedNet::HalfKa(net) => net.evaluate(pos),
        }
    }

    /// The evaluation the search uses with this net.
    pub fn eval_kind(&self) -> EvalKind {
        match self {
            LoadedNet::HalfKp(net) => EvalKind::Nnue(net.clone()),
            LoadedNet::HalfKa(net) => EvalKind::HalfKa(net.clone()),
        }
    }
}
