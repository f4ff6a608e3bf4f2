//! Which evaluation scores positions, for `generate` (which labels its games)
//! and `rescore` (which relabels records): the classical evaluation, the net
//! embedded in the binary, or a `.nnue` file.

use std::path::PathBuf;
use std::sync::Arc;

use nnue_core::nnue::Network;
use nnue_engine::eval::EvalKind;

use crate::error::Error;

/// Which evaluation labels the positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalChoice {
    /// The hand-written evaluation.
    Classical,
    /// The net embedded in the binary.
    Embedded,
    /// A `.nnue` file.
    File(PathBuf),
}

impl EvalChoice {
    /// The `.nnue` file this choice reads, if any (an input no output may overwrite).
    pub fn file(&self) -> Option<&PathBuf> {
        match self {
            EvalChoice::File(path) => Some(path),
            _ => None,
        }
    }

    /// Loads the evaluation (a net once, shared by every searcher).
    pub fn load(&self) -> Result<EvalKind, Error> {
        Ok(match self {
            EvalChoice::Classical => EvalKind::Classical,
            EvalChoice::File(path) => EvalKind::Nnue(Arc::new(Network::load(path)?)),
            EvalChoice::Embedded => match nnue_engine::default_net::load()? {
                Some(net) => EvalKind::Nnue(net),
                None => return Err(Error::NoEmbeddedNet),
            },
        })
    }
}
