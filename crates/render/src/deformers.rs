//! The post-skin deformers as the skin pass reads them, in plain data: per primitive each
//! deformer's words (packed once per character by the frame's extract, see the application's
//! `draw::deformers`) and per frame one slice of values (the muscles' displacements and the ML
//! deformer's weights share one uniform, `shaders/muscle.wgsl`'s). The renderer knows each
//! deformer only by its shader and the base its words start at.

/// A post-skin deformer the skin pass runs, in the order its words follow a primitive's
/// vertex words (`SkinPassSlot`'s bases in `shaders/skin_pass.wgsl`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeformerKind {
    /// Direct delta mush's Ω (`shaders/ddm.wgsl`): per vertex its centroid and packed range
    /// (first * 128 + count), 4 words, then per entry Ω's 10 floats, the joint and a pad.
    DeltaMush,
    /// The muscles' skin weights (`shaders/muscle.wgsl`): per vertex first * 8 + count, then
    /// per entry (particle, weight bits).
    Muscles,
    /// The ML deformer's components (`shaders/ml.wgsl`): vertex v's component k at words
    /// 3 * (v * K + k), three floats.
    Ml,
}

impl DeformerKind {
    /// Every kind, in the order of their words.
    pub const ALL: [Self; 3] = [Self::DeltaMush, Self::Muscles, Self::Ml];
    /// How many kinds there are.
    pub const COUNT: usize = Self::ALL.len();

    /// Whether the frame's values move this deformer (it then needs the skin pass), and why
    /// the skin pass runs for it.
    pub(crate) fn moves_each_frame(self) -> Option<&'static str> {
        match self {
            Self::DeltaMush => None,
            Self::Muscles => Some("the muscles move the skin in the skin pass"),
            Self::Ml => Some("the ML deformer corrects the skin in the skin pass"),
        }
    }
}

/// One primitive's words of every deformer, indexed by `DeformerKind as usize`.
pub type PrimitiveWords = [Option<Vec<u32>>; DeformerKind::COUNT];

/// Every post-skin deformer's words, per mesh per primitive: what `Renderer::set_deformers`
/// uploads after each primitive's vertex words.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DeformerWords {
    /// `primitives[mesh][primitive][kind as usize]`: that deformer's words for the primitive,
    /// or none. Meshes and primitives past its end have none.
    pub primitives: Vec<Vec<PrimitiveWords>>,
    /// The ML deformer's components per vertex (K), 0 without one.
    pub ml_components: u32,
}

impl DeformerWords {
    /// Primitive `primitive` of mesh `mesh`'s words of each kind.
    pub fn of(&self, mesh: usize, primitive: usize) -> [Option<&[u32]>; DeformerKind::COUNT] {
        let words = self.primitives.get(mesh).and_then(|m| m.get(primitive));
        DeformerKind::ALL.map(|k| words.and_then(|w| w[k as usize].as_deref()))
    }

    /// Whether no primitive has words of any deformer.
    pub fn is_empty(&self) -> bool {
        self.primitives
            .iter()
            .flatten()
            .flatten()
            .all(Option::is_none)
    }
}

/// Particles the per-frame values hold (`muscle.wgsl`'s `offsets`): displacements past it are
/// dropped, and so are the skin weights that name them.
pub const MAX_GPU_PARTICLES: usize = 4000;
/// The ML deformer's weights the per-frame values hold (`ml.wgsl`).
pub const MAX_GPU_COMPONENTS: usize = 64;
/// Where the ML deformer's weights start in the per-frame values (vec4s, four weights each);
/// the muscles' displacements (xyz, 0) start at 0.
pub const ML_WEIGHTS_AT: usize = MAX_GPU_PARTICLES;
/// The per-frame values' length in vec4s: the uniform they fill.
pub const DEFORMER_VALUES: usize = ML_WEIGHTS_AT + MAX_GPU_COMPONENTS / 4;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_primitive_s_words_are_found_by_mesh_primitive_and_kind() {
        let words = DeformerWords {
            primitives: vec![vec![], vec![[None, Some(vec![7, 8]), Some(vec![9])]]],
            ml_components: 1,
        };
        assert_eq!(words.of(1, 0), [None, Some(&[7, 8][..]), Some(&[9][..])]);
        assert_eq!(words.of(0, 0), [None, None, None]);
        assert_eq!(words.of(5, 3), [None, None, None]);
        assert!(!words.is_empty());
        assert!(DeformerWords::default().is_empty());
    }

    #[test]
    fn the_values_fill_the_muscle_uniform_of_the_shader() {
        let wgsl = include_str!("../../../shaders/muscle.wgsl");
        let particles = format!("array<vec4<f32>, {MAX_GPU_PARTICLES}>");
        let weights = format!("array<vec4<f32>, {}>", MAX_GPU_COMPONENTS / 4);
        assert!(wgsl.contains(&particles), "{particles}");
        assert!(wgsl.contains(&weights), "{weights}");
        assert_eq!(DEFORMER_VALUES * 16, 64_256);
    }
}
