//! The window's direct delta mush: Ω precomputed on a thread of its own when the skinning (or
//! the split view's right half) asks for it, its progress shown, and kept for the session per
//! file and parameters, so switching back and forth, or back to earlier parameters, is at once.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use super::Viewer;
use crate::anim::SkinningMethod;
use crate::deform::DdmData;

/// What a precomputation is cached by: the file (`None`: the built-in character) and the
/// parameters' bits.
type DdmKey = (Option<PathBuf>, [u32; 5]);

/// One precomputation under way.
struct DdmBuild {
    key: DdmKey,
    /// Fraction done, as f32 bits.
    progress: Arc<AtomicU32>,
    thread: super::job::Job<Result<DdmData, String>>,
}

/// Where the window's direct delta mush stands.
#[derive(Default)]
pub struct DdmState {
    cache: HashMap<DdmKey, Arc<DdmData>>,
    build: Option<DdmBuild>,
    /// The last precomputation's error, and the parameters it was for.
    error: Option<(DdmKey, String)>,
    /// The Ω the renderer should hold, and a count bumped each time it changes.
    pub current: Option<Arc<DdmData>>,
    pub changes: u64,
    current_key: Option<DdmKey>,
}

/// For the panel.
#[derive(Clone, Debug, PartialEq)]
pub enum DdmStatus {
    /// Not used by the skinning shown.
    Off,
    /// Precomputing: the fraction done.
    Precomputing(f32),
    Ready(crate::deform::DdmStats),
    Failed(String),
}

impl DdmState {
    /// Another character is shown: its Ω is not drawn (the cache keeps it).
    pub fn drop_current(&mut self) {
        if self.current.take().is_some() {
            self.changes += 1;
        }
        self.current_key = None;
    }
}

impl Viewer {
    fn ddm_wanted(&self) -> bool {
        let c = &self.controls;
        c.skinning.method == SkinningMethod::DeltaMush
            || (matches!(
                c.compared(),
                super::Compared::OtherSkinning | super::Compared::MlReference
            ) && c.right_skinning() == SkinningMethod::DeltaMush)
    }

    /// Before drawing: Ω for the current file and parameters, from the cache, or started on a
    /// thread, or taken from the finished thread.
    pub fn advance_ddm(&mut self) {
        if !self.ddm_wanted() {
            return;
        }
        let params = self.controls.skinning.ddm;
        let key: DdmKey = (self.source.clone(), params.key());
        let state = &mut self.ddm;
        if state.current_key.as_ref() == Some(&key) {
            return;
        }
        // Other parameters: the old Ω is not drawn meanwhile.
        state.drop_current();
        if let Some(data) = state.cache.get(&key) {
            state.current = Some(data.clone());
            state.current_key = Some(key);
            state.changes += 1;
            return;
        }
        if state.error.as_ref().is_some_and(|(k, _)| *k == key) {
            return;
        }
        if let Err(e) = params.check() {
            state.error = Some((key, e.to_string()));
            return;
        }
        match &state.build {
            Some(b) if b.key == key && b.thread.is_finished() => {}
            Some(b) if b.key == key || !b.thread.is_finished() => return,
            _ => {
                let progress = Arc::new(AtomicU32::new(0));
                let told = progress.clone();
                let c = self.character.clone();
                let thread = super::job::Job::start(move || {
                    let mut tell = |f: f32| told.store(f.to_bits(), Ordering::Relaxed);
                    crate::deform::precompute(&c, &params, &mut tell).map_err(|e| e.to_string())
                });
                state.build = Some(DdmBuild {
                    key,
                    progress,
                    thread,
                });
                return;
            }
        }
        let Some(build) = state.build.take() else {
            return;
        };
        match build.thread.join() {
            Ok(Ok(data)) => {
                let data = Arc::new(data);
                state.cache.insert(key.clone(), data.clone());
                state.current = Some(data);
                state.current_key = Some(key);
                state.changes += 1;
            }
            Ok(Err(e)) => state.error = Some((key, e)),
            Err(_) => state.error = Some((key, "the precomputation stopped".into())),
        }
    }

    /// Where direct delta mush stands for the file and parameters shown.
    pub fn ddm_status(&self) -> DdmStatus {
        if !self.ddm_wanted() {
            return DdmStatus::Off;
        }
        let key: DdmKey = (self.source.clone(), self.controls.skinning.ddm.key());
        let state = &self.ddm;
        if let Some((k, e)) = &state.error
            && *k == key
        {
            return DdmStatus::Failed(e.clone());
        }
        match (&state.current, &state.current_key, &state.build) {
            (Some(data), Some(k), _) if *k == key => DdmStatus::Ready(data.stats()),
            (_, _, Some(b)) => {
                DdmStatus::Precomputing(f32::from_bits(b.progress.load(Ordering::Relaxed)))
            }
            _ => DdmStatus::Precomputing(0.0),
        }
    }

    /// Waits for a precomputation under way (tests; the window never waits).
    pub fn finish_ddm(&mut self) {
        while matches!(self.ddm_status(), DdmStatus::Precomputing(_)) {
            if self
                .ddm
                .build
                .as_ref()
                .is_some_and(|b| !b.thread.is_finished())
            {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            self.advance_ddm();
        }
    }
}
