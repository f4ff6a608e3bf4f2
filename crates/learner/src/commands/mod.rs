//! One module per `nnue-learn` subcommand, each owning its arguments and its
//! `run`.

pub mod check;
