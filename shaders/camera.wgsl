// The camera, shared by the mesh and line pipelines (composed first; see src/render/shaders.rs).
struct Camera {
    // Clip space from world space: projection * view.
    clip_from_world: mat4x4<f32>,
    // World-space eye position; w: the exposure as a factor (2^EV).
    eye: vec4<f32>,
    // Direction the key light travels, world space, normalised; w: its intensity.
    light_dir: vec4<f32>,
    // x: 1 to colour meshes by their per-vertex debug colours instead of their materials;
    // y: tone mapping, 0 none, 1 ACES (Hill's fit), 2 Khronos PBR Neutral.
    mode: vec4<u32>,
    // The shadow maps' clip spaces (shadow.wgsl): 0 seen from the key light, 1 from just under
    // the ground looking up.
    shadow_from_world: array<mat4x4<f32>, 2>,
    // x: 1 when shadows are drawn; y: the receivers' offset along their normal (world units);
    // z: the contact darkening's radius (world units).
    shadow: vec4<f32>,
    // The ground: centre x, height, centre z, half its side.
    ground: vec4<f32>,
    // World space from clip space (the background's rays).
    world_from_clip: mat4x4<f32>,
    // x: 1 when a file's prefiltered maps light the scene (light.wgsl), 0 for the generated sky;
    // y: the environment's rotation about +Y (radians); z: its intensity; w: the specular
    // cube's last level (roughness 1).
    environment: vec4<f32>,
    // x: what the background shows, 0 the flat colour, 1 the environment; y: the roughness it is
    // blurred to (0 sharp).
    background: vec4<f32>,
}

@group(0) @binding(0) var<uniform> camera: Camera;
