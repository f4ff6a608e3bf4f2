//! One module per `nnue-learn` subcommand, each owning its arguments and its
//! `run`; [`shape`] holds the options that describe a net's shape, shared by
//! `train`, `bench` and `random-net`.

pub mod bench;
pub mod check;
pub mod export;
pub mod features;
pub mod info;
pub mod preset;
pub mod random_net;
pub mod shape;
pub mod train;

use crate::error::LearnError;

/// A rayon pool of `threads` workers (all cores when `None`; clap has already
/// refused 0).
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, LearnError> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        builder = builder.num_threads(n);
    }
    builder
        .build()
        .map_err(|e| LearnError::Usage(format!("cannot start {threads:?} threads: {e}")))
}

/// The value parser of an integer option that must be at least `min`. It
/// parses as a signed number first, so `--epochs -1` is told the range rather
/// than "invalid digit".
pub fn at_least<T>(min: i64) -> clap::builder::RangedI64ValueParser<T>
where
    T: TryFrom<i64> + Clone + Send + Sync + 'static,
    <T as TryFrom<i64>>::Error: std::error::Error + Send + Sync + 'static,
{
    clap::builder::RangedI64ValueParser::<T>::new().range(min..)
}

/// The value parser of `--threads`: at least 1.
pub fn threads_parser() -> clap::builder::RangedI64ValueParser<usize> {
    at_least(1)
}
