// GPU-equals-CPU check: morphs and skins an array of vertices with `morph_vertex` and
// `skin_vertex` in a compute pass, so tests can compare the shaders' functions with the CPU
// reference. Composed after morph.wgsl and skinning.wgsl.

struct CheckVertex {
    position: vec4<f32>,
    normal: vec4<f32>,
    joints: vec4<u32>,
    weights: vec4<f32>,
    joints1: vec4<u32>,
    weights1: vec4<f32>,
}

struct CheckParams {
    vertex_count: u32,
    palette_base: u32,
    morph_first: u32,
    morph_count: u32,
    // 0 linear blend, 1 dual-quaternion skinning (the palette then holds packed DQS entries), 2
    // weight-blended (each matrix followed by its packed entry carrying the method weight).
    skinning: u32,
    pad0: u32,
    pad1: u32,
    pad2: u32,
}

@group(0) @binding(0) var<storage, read> vertices: array<CheckVertex>;
@group(0) @binding(1) var<storage, read_write> skinned: array<vec4<f32>>;
@group(0) @binding(2) var<uniform> params: CheckParams;

// Writes skinned[2i] = (position, 1) and skinned[2i + 1] = (normal, 0).
@compute @workgroup_size(64)
fn cs_main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if i >= params.vertex_count {
        return;
    }
    let v = vertices[i];
    let m = morph_vertex(params.morph_first, params.morph_count, params.vertex_count, i, v.position.xyz, v.normal.xyz);
    let influences = Influences(v.joints, v.weights, v.joints1, v.weights1);
    let s = skin_vertex(params.skinning, params.palette_base, m.position, m.normal, influences);
    skinned[2u * i] = vec4<f32>(s.position, 1.0);
    skinned[2u * i + 1u] = vec4<f32>(s.normal, 0.0);
}
