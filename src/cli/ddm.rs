//! Direct delta mush's options (`--skinning ddm`) on `render`, `check` and `pose`: the
//! precomputation's parameters, checked against the paper's limits, and the precomputation.

use std::sync::Arc;

use skinscope::anim::SkinningMethod;
use skinscope::character::Character;
use skinscope::deform::{DdmData, DdmError, DdmParams};

/// The precomputation's parameters (defaults: libigl's example, p = 20, λ = 3, κ = 1,
/// α = 0.8; 16 joints kept per vertex).
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct DdmArgs {
    /// Direct delta mush: implicit smoothing steps p (at least 1; default 20).
    #[arg(long, allow_negative_numbers = true)]
    pub ddm_iterations: Option<u32>,
    /// Direct delta mush: the smoothing of Ψ, λ (positive; default 3).
    #[arg(long, allow_negative_numbers = true)]
    pub ddm_lambda: Option<f32>,
    /// Direct delta mush: the smoothing of the weights, κ (0 < κ < λ; default 1).
    #[arg(long, allow_negative_numbers = true)]
    pub ddm_kappa: Option<f32>,
    /// Direct delta mush: the blend toward the smoothed weights' centroid, α (0 <= α < 1;
    /// default 0.8).
    #[arg(long, allow_negative_numbers = true)]
    pub ddm_alpha: Option<f32>,
    /// Direct delta mush: the joints kept per vertex in Ω (1 to 64; default 64: every joint that weighs on a vertex, on the characters seen).
    #[arg(long, allow_negative_numbers = true)]
    pub ddm_cap: Option<usize>,
}

impl DdmArgs {
    /// The parameters given, the defaults elsewhere.
    pub fn params(&self) -> DdmParams {
        let d = DdmParams::default();
        DdmParams {
            iterations: self.ddm_iterations.unwrap_or(d.iterations),
            lambda: self.ddm_lambda.unwrap_or(d.lambda),
            kappa: self.ddm_kappa.unwrap_or(d.kappa),
            alpha: self.ddm_alpha.unwrap_or(d.alpha),
            cap: self.ddm_cap.unwrap_or(d.cap),
        }
    }

    pub fn any_given(&self) -> bool {
        self.ddm_iterations.is_some()
            || self.ddm_lambda.is_some()
            || self.ddm_kappa.is_some()
            || self.ddm_alpha.is_some()
            || self.ddm_cap.is_some()
    }

    /// Under `--skinning ddm`, `c`'s Ω precomputed with these parameters (checked first);
    /// otherwise none, and a `--ddm-*` option given is refused (it would go unused).
    pub fn precompute(
        &self,
        c: &Character,
        skinning: SkinningMethod,
    ) -> Result<Option<Arc<DdmData>>, String> {
        if skinning != SkinningMethod::DeltaMush {
            if self.any_given() {
                return Err("the --ddm-* options need --skinning ddm".into());
            }
            return Ok(None);
        }
        self.precompute_now(c).map(|d| Some(Arc::new(d)))
    }

    /// `c`'s Ω with these parameters (checked first): read from the cache when this mesh was
    /// precomputed with them before, else precomputed and saved there.
    pub fn precompute_now(&self, c: &Character) -> Result<DdmData, String> {
        let params = self.params();
        params.check().map_err(|e| ddm_error(&e))?;
        let key = skinscope::deform::ddm_key(c, &params);
        let cached = cache_file(key);
        if let Some(path) = &cached
            && let Ok(bytes) = skinscope::files::read_capped(path, MAX_CACHED_BYTES)
        {
            match DdmData::from_bytes(&bytes, c, key) {
                Ok(data) => return Ok(data),
                Err(e) => log::info!("{}: not used ({e}); precomputing again", path.display()),
            }
        }
        let data = skinscope::deform::precompute(c, &params, &mut |_| {})
            .map_err(|e| format!("{}: {}", c.name, ddm_error(&e)))?;
        if let Some(path) = &cached {
            save_to_cache(path, &data.to_bytes(key));
        }
        Ok(data)
    }
}

/// The largest saved Ω read back (4 M entries of 44 bytes, with room for the ranges).
const MAX_CACHED_BYTES: u64 = 1 << 28;
/// Saved precomputations kept: the oldest beyond these are removed.
const MAX_CACHED_FILES: usize = 16;

/// Where the precomputation of `key` is saved: `SKINSCOPE_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/skinscope`, else `~/.cache/skinscope`, under `ddm/`; `None` when none is
/// known.
fn cache_file(key: u64) -> Option<std::path::PathBuf> {
    let env = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    let root = env("SKINSCOPE_CACHE_DIR")
        .map(std::path::PathBuf::from)
        .or_else(|| env("XDG_CACHE_HOME").map(|d| std::path::PathBuf::from(d).join("skinscope")))
        .or_else(|| env("HOME").map(|h| std::path::PathBuf::from(h).join(".cache/skinscope")))?;
    Some(root.join("ddm").join(format!("{key:016x}.omega")))
}

/// Saves a precomputation (whole or not at all), keeping the `MAX_CACHED_FILES` newest; a cache
/// that cannot be written is no error, only slower next time.
fn save_to_cache(path: &std::path::Path, bytes: &[u8]) {
    let Some(folder) = path.parent() else { return };
    if std::fs::create_dir_all(folder).is_err() {
        return;
    }
    if let Err(e) = skinscope::files::write_bytes_whole(path, bytes) {
        log::info!("the direct delta mush cache is not written: {e}");
        return;
    }
    let mut saved: Vec<(std::time::SystemTime, std::path::PathBuf)> = std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "omega"))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    saved.sort();
    let extra = saved.len().saturating_sub(MAX_CACHED_FILES);
    for (_, old) in saved.into_iter().take(extra) {
        std::fs::remove_file(old).ok();
    }
}

/// A direct delta mush error in the command line's words: a parameter named by its `--ddm-*`
/// flag, a mesh too big for the cap pointed at `--ddm-cap`.
pub fn ddm_error(e: &DdmError) -> String {
    match e {
        DdmError::Param(p) => super::values::flag_error("ddm-", p),
        DdmError::TooBig { .. } => format!("{e} (--ddm-cap)"),
        _ => e.to_string(),
    }
}
