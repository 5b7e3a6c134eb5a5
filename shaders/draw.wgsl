// One draw and one skinned vertex, shared by the mesh pipelines (mesh.wgsl) and the skin pass
// (skin_pass.wgsl). Composed after camera.wgsl.

// One draw: an instance's primitive, for one copy. `palette_base` is where its skin's palette
// starts (0: the shared identity entry, for unskinned meshes); `morph_first` and `morph_count` are
// its non-zero morph weights in `morph_active`, `morph_vertices` its vertex count (the deltas'
// stride); `out_base` is where its vertices start in the skin pass's output.
struct Draw {
    world_from_mesh: mat4x4<f32>,
    base_color: vec4<f32>,
    palette_base: u32,
    morph_first: u32,
    morph_count: u32,
    morph_vertices: u32,
    // MASK: fragments with alpha below it are discarded (negative: never).
    alpha_cutoff: f32,
    // BLEND (1): the fragment keeps its alpha; otherwise opaque.
    alpha_blend: u32,
    // 1 when the primitive's morph targets displace tangents.
    morph_tangents: u32,
    out_base: u32,
    // 1: shade with the drawn triangle's normal (a morphed primitive whose file has no normals).
    face_normals: u32,
}

// data: begin draws
@group(0) @binding(1) var<storage, read> draws: array<Draw>;

fn draw_at(i: u32) -> Draw {
    return draws[i];
}
// data: end

// A vertex morphed and skinned, in mesh space: position (w = 1), unit normal (w = 0; zero stays
// zero) and tangent (xyz skinned, not renormalised; w its handedness).
struct SkinnedVertex {
    position: vec4<f32>,
    normal: vec4<f32>,
    tangent: vec4<f32>,
}
