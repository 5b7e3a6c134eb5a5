//! Work the window does beside its frames (direct delta mush's precomputation, motion matching's
//! database): on a thread of its own where the platform has threads, so the window keeps
//! drawing; where it has none (a browser page), done at once in the frame that asks for it.

/// A result being computed.
pub struct Job<T> {
    state: State<T>,
}

enum State<T> {
    #[cfg(not(target_arch = "wasm32"))]
    Thread(std::thread::JoinHandle<T>),
    /// Computed already (no threads here); `None` once taken.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    Done(Option<T>),
}

impl<T: Send + 'static> Job<T> {
    /// Starts `work`.
    pub fn start(work: impl FnOnce() -> T + Send + 'static) -> Self {
        #[cfg(not(target_arch = "wasm32"))]
        let state = State::Thread(std::thread::spawn(work));
        #[cfg(target_arch = "wasm32")]
        let state = State::Done(Some(work()));
        Self { state }
    }

    /// Whether the result is ready to take.
    pub fn is_finished(&self) -> bool {
        match &self.state {
            #[cfg(not(target_arch = "wasm32"))]
            State::Thread(t) => t.is_finished(),
            State::Done(r) => r.is_some(),
        }
    }

    /// The result, waiting for it; `Err` when the work panicked.
    pub fn join(self) -> Result<T, ()> {
        match self.state {
            #[cfg(not(target_arch = "wasm32"))]
            State::Thread(t) => t.join().map_err(|_| ()),
            State::Done(r) => r.ok_or(()),
        }
    }
}
