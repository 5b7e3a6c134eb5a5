//! Panics contained where a library under us may panic on bad data (a decoder's assertion):
//! the panic becomes an error value, and the default hook's "thread 'main' panicked" text is
//! not printed for it, since the caller reports the refusal cleanly. Panics anywhere else are
//! printed as always.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;

thread_local! {
    /// How many `quietly` calls this thread is inside.
    static QUIET: Cell<u32> = const { Cell::new(0) };
}

static HOOK: Once = Once::new();

/// Wraps the panic hook once: it stays silent on a thread inside `quietly`.
fn install_hook() {
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if QUIET.with(Cell::get) == 0 {
                default(info);
            }
        }));
    });
}

/// A panic caught by `quietly`, with its message (empty when the payload was not text).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Panicked {
    pub message: String,
}

/// Runs `f`; a panic in it is returned with its message, printed by no hook.
pub fn quietly<T>(f: impl FnOnce() -> T) -> Result<T, Panicked> {
    install_hook();
    QUIET.with(|q| q.set(q.get() + 1));
    let result = catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(q.get() - 1));
    result.map_err(|panic| Panicked {
        message: (panic.downcast_ref::<&str>())
            .map(|s| (*s).to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_panic_inside_is_an_error_with_its_message() {
        let r: Result<(), _> = super::quietly(|| panic!("index 7 out of range"));
        assert_eq!(r.unwrap_err().message, "index 7 out of range");
        assert_eq!(super::quietly(|| 3).unwrap(), 3);
        assert_eq!(super::QUIET.with(std::cell::Cell::get), 0);
    }
}
