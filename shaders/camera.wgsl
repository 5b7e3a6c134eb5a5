// The camera, shared by the mesh and line pipelines (composed first; see src/render/shaders.rs).
struct Camera {
    // Clip space from world space: projection * view.
    clip_from_world: mat4x4<f32>,
    // World-space eye position (w unused).
    eye: vec4<f32>,
    // Direction the light travels, world space, normalised (w unused).
    light_dir: vec4<f32>,
    // x: 1 to colour meshes by their per-vertex debug colours instead of their materials.
    mode: vec4<u32>,
}

@group(0) @binding(0) var<uniform> camera: Camera;
