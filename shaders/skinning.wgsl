// The one linear-blend-skinning function of skinscope. Every pipeline that skins is this file
// followed by the pipeline's own shader (src/render/shaders.rs composes them), so the shaded,
// wireframe, debug and check pipelines cannot disagree about skinning.
//
// palette[palette_base + j] is `mesh_from_bind` for joint j of the vertex's skin: a column-major
// 4x4 matrix, 64 bytes per entry, written by the CPU (anim::build_palette) into a storage buffer.
@group(1) @binding(0) var<storage, read> palette: array<mat4x4<f32>>;

// Weighted sum of the vertex's four palette entries; weights are expected to sum to one.
fn skin_matrix(palette_base: u32, joints: vec4<u32>, weights: vec4<f32>) -> mat4x4<f32> {
    return palette[palette_base + joints.x] * weights.x
        + palette[palette_base + joints.y] * weights.y
        + palette[palette_base + joints.z] * weights.z
        + palette[palette_base + joints.w] * weights.w;
}

struct Skinned {
    position: vec3<f32>,
    normal: vec3<f32>,
}

// Skins a position (w = 1) and a normal (w = 0, renormalised; a zero normal stays zero).
fn skin_vertex(
    palette_base: u32,
    position: vec3<f32>,
    normal: vec3<f32>,
    joints: vec4<u32>,
    weights: vec4<f32>,
) -> Skinned {
    let m = skin_matrix(palette_base, joints, weights);
    let p = (m * vec4<f32>(position, 1.0)).xyz;
    let n = (m * vec4<f32>(normal, 0.0)).xyz;
    let len = length(n);
    return Skinned(p, select(vec3<f32>(0.0), n / len, len > 0.0));
}
