// The one morph function of skinscope. Every pipeline that draws or checks vertices composes this
// file before skinning.wgsl (src/render/shaders.rs): morphing happens in bind space, before
// skinning, the same in the shaded, wireframe, silhouette and debug pipelines and the GPU check.
//
// morph_active[first .. first + count] lists the draw's non-zero weights this frame (written by
// the CPU only when they change). A primitive's deltas are target-major: target t, vertex v at
// 3 * (t * vertex_count + v), three floats, positions and normals in their own buffers (zeros
// where a target has none).

struct MorphActive {
    target_index: u32,
    weight: f32,
}

// data: begin morph
@group(3) @binding(0) var<storage, read> morph_active: array<MorphActive>;
@group(3) @binding(1) var<storage, read> morph_positions: array<f32>;
@group(3) @binding(2) var<storage, read> morph_normals: array<f32>;
@group(3) @binding(3) var<storage, read> morph_tangents: array<f32>;

fn morph_active_at(i: u32) -> MorphActive {
    return morph_active[i];
}

// The three floats of a delta from float `at`.
fn morph_position_delta(at: u32) -> vec3<f32> {
    return vec3<f32>(morph_positions[at], morph_positions[at + 1u], morph_positions[at + 2u]);
}

fn morph_normal_delta(at: u32) -> vec3<f32> {
    return vec3<f32>(morph_normals[at], morph_normals[at + 1u], morph_normals[at + 2u]);
}

fn morph_tangent_delta(at: u32) -> vec3<f32> {
    return vec3<f32>(morph_tangents[at], morph_tangents[at + 1u], morph_tangents[at + 2u]);
}
// data: end

struct Morphed {
    position: vec3<f32>,
    normal: vec3<f32>,
}

// position + sum of w * dP; normal + sum of w * dN, renormalised (kept when it cancels out).
fn morph_vertex(
    first: u32,
    count: u32,
    vertex_count: u32,
    v: u32,
    position: vec3<f32>,
    normal: vec3<f32>,
) -> Morphed {
    var p = position;
    var n = normal;
    for (var i = 0u; i < count; i += 1u) {
        let a = morph_active_at(first + i);
        let at = 3u * (a.target_index * vertex_count + v);
        p += a.weight * morph_position_delta(at);
        n += a.weight * morph_normal_delta(at);
    }
    let len = length(n);
    return Morphed(p, select(normal, n / len, len > 0.0));
}

// A tangent's xyz + sum of w * dT (its handedness is never blended); renormalised by the
// shading. Drawn primitives whose targets carry tangents only.
fn morph_tangent(first: u32, count: u32, vertex_count: u32, v: u32, tangent: vec3<f32>) -> vec3<f32> {
    var t = tangent;
    for (var i = 0u; i < count; i += 1u) {
        let a = morph_active_at(first + i);
        let at = 3u * (a.target_index * vertex_count + v);
        t += a.weight * morph_tangent_delta(at);
    }
    return t;
}
