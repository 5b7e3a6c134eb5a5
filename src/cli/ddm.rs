//! Direct delta mush's options (`--skinning ddm`) on `render`, `check` and `pose`: the
//! precomputation's parameters, checked against the paper's limits, and the precomputation.

use std::sync::Arc;

use skinscope::anim::SkinningMethod;
use skinscope::character::Character;
use skinscope::deform::{DdmData, DdmParams};

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

    /// `c`'s Ω with these parameters (checked first).
    pub fn precompute_now(&self, c: &Character) -> Result<DdmData, String> {
        let params = self.params();
        params.check().map_err(|e| e.to_string())?;
        skinscope::deform::precompute(c, &params, &mut |_| {})
            .map_err(|e| format!("{}: {e}", c.name))
    }
}
