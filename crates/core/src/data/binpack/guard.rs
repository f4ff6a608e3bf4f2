//! Last-resort containment of panics inside the `sfbinpack` decoder.
//!
//! The crate indexes its input without bounds checks of its own, so a
//! corrupted chunk can make it panic (out-of-bounds index, bad piece
//! ordinal, arithmetic overflow in checked builds). We validate chunk
//! headers ourselves and check every decoded entry, but the move text in
//! between can only be checked by decoding it, so each decoder call runs
//! under [`contain`], which turns a panic into an error message.
//!
//! While a contained call runs, the process-wide panic hook stays quiet on
//! that thread (the error is reported once, by the caller, as a data error);
//! panics anywhere else still reach the previously installed hook. This
//! needs `panic = "unwind"`, which the workspace's profiles keep.

use std::any::Any;
use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

use thiserror::Error;

// With `panic = "abort"` a corrupt file would kill the process instead of
// giving an error; refuse to build that way.
#[cfg(panic = "abort")]
compile_error!("nnue-core's .binpack reader needs panic = \"unwind\" to contain decoder panics");

thread_local! {
    static CONTAINED: Cell<bool> = const { Cell::new(false) };
}

static INSTALL_HOOK: Once = Once::new();

fn install_quiet_hook() {
    INSTALL_HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !CONTAINED.with(Cell::get) {
                previous(info);
            }
        }));
    });
}

/// A panic caught inside the decoder, with its message (the caller reports
/// it as corrupt move text of the entry being decoded).
#[derive(Debug, Error)]
#[error("{0}")]
pub(crate) struct DecoderPanic(pub(crate) String);

/// Runs `f`, returning the panic (with its message) instead of unwinding
/// further.
pub(crate) fn contain<T>(f: impl FnOnce() -> T) -> Result<T, DecoderPanic> {
    install_quiet_hook();
    let outer = CONTAINED.with(|c| c.replace(true));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    CONTAINED.with(|c| c.set(outer));
    result.map_err(|payload| DecoderPanic(panic_message(payload.as_ref())))
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "decoder panicked".to_owned()
    }
}
