//! How a frame is shown, as plain data the panel, the command line and the renderer share
//! without knowing any GPU: where vertices are skinned and how lit colours are tone-mapped.

/// Where vertices are skinned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SkinPass {
    /// The skin pass when its output fits a storage binding of the device (it measured faster
    /// than vertex-shader skinning in every case `benches/skin_pass.rs` runs on lavapipe: see
    /// the README's "Skinning once a frame"), else the vertex shader.
    #[default]
    Auto,
    /// In the vertex shader of each pass that draws the mesh.
    Vertex,
    /// Once a frame, in a compute pass every draw reads (the vertex shader when the output
    /// would not fit).
    Compute,
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
