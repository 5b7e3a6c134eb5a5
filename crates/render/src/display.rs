//! How a frame is shown, as plain data the panel, the command line and the renderer share
//! without knowing any GPU: where vertices are skinned and how lit colours are tone-mapped.

/// Where vertices are skinned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SkinPass {
    /// The skin pass when its output fits a storage binding of the device (it measured faster
    /// than vertex-shader skinning in every case `benches/skin_pass.rs` runs on lavapipe: see
    /// `docs/skinning.md`, "Skinning once a frame"), else the vertex shader.
    #[default]
    Auto,
    /// In the vertex shader of each pass that draws the mesh.
    Vertex,
    /// Once a frame, in a compute pass every draw reads (the vertex shader when the output
    /// would not fit).
    Compute,
}

/// The kind of adapter a frame is drawn on, as far as the skin pass's `Auto` cares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AdapterKind {
    DiscreteGpu,
    IntegratedGpu,
    /// A software rasteriser (lavapipe).
    Cpu,
    /// Virtual, or not known.
    #[default]
    Other,
}

impl SkinPass {
    /// Where the vertices are skinned for a frame that draws the mesh `passes` times on
    /// `adapter` (the output fitting a storage binding), and why. `Auto` follows our design
    /// documents: one or two passes on a discrete GPU skin in the vertex shader (its cost
    /// there is small and the compute pass's dispatch and round trip through memory are
    /// not); more passes, or any other adapter (an integrated GPU shares its memory's
    /// bandwidth, lavapipe measured the compute pass faster in every case), skin once.
    pub fn resolve(self, passes: u32, adapter: AdapterKind) -> (SkinPass, &'static str) {
        match self {
            SkinPass::Vertex => (SkinPass::Vertex, "asked for the vertex shader"),
            SkinPass::Compute => (SkinPass::Compute, "asked for the compute pass"),
            SkinPass::Auto => match adapter {
                AdapterKind::DiscreteGpu if passes <= 2 => (
                    SkinPass::Vertex,
                    "auto: one or two passes on a discrete GPU skin in the vertex shader",
                ),
                AdapterKind::DiscreteGpu => (
                    SkinPass::Compute,
                    "auto: three or more passes draw the mesh, so it is skinned once",
                ),
                _ => (
                    SkinPass::Compute,
                    "auto: not a discrete GPU, so the mesh is skinned once for every pass",
                ),
            },
        }
    }
}

/// How lit colours are brought into the display's range (the Khronos Sample Viewer's choices).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ToneMap {
    /// Clamped, no curve.
    None,
    /// ACES filmic, Stephen Hill's fit.
    Aces,
    /// Khronos PBR Neutral (the Sample Viewer's default).
    #[default]
    KhronosNeutral,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_skins_in_the_vertex_shader_only_for_a_pass_or_two_on_a_discrete_gpu() {
        let auto = |passes, adapter| SkinPass::Auto.resolve(passes, adapter).0;
        assert_eq!(auto(1, AdapterKind::DiscreteGpu), SkinPass::Vertex);
        assert_eq!(auto(2, AdapterKind::DiscreteGpu), SkinPass::Vertex);
        assert_eq!(auto(3, AdapterKind::DiscreteGpu), SkinPass::Compute);
        for adapter in [
            AdapterKind::IntegratedGpu,
            AdapterKind::Cpu,
            AdapterKind::Other,
        ] {
            assert_eq!(auto(1, adapter), SkinPass::Compute);
        }
        // A choice made by hand stands, whatever the frame.
        assert_eq!(
            SkinPass::Vertex.resolve(9, AdapterKind::Cpu).0,
            SkinPass::Vertex
        );
        assert_eq!(
            SkinPass::Compute.resolve(1, AdapterKind::DiscreteGpu).0,
            SkinPass::Compute
        );
        assert!(
            SkinPass::Auto
                .resolve(1, AdapterKind::Cpu)
                .1
                .contains("not a discrete GPU")
        );
    }
}
