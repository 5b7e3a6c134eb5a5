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

@group(3) @binding(0) var<storage, read> morph_active: array<MorphActive>;
@group(3) @binding(1) var<storage, read> morph_positions: array<f32>;
@group(3) @binding(2) var<storage, read> morph_normals: array<f32>;
@group(3) @binding(3) var<storage, read> morph_tangents: array<f32>;

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
        let a = morph_active[first + i];
        let at = 3u * (a.target_index * vertex_count + v);
        p += a.weight * vec3<f32>(morph_positions[at], morph_positions[at + 1u], morph_positions[at + 2u]);
        n += a.weight * vec3<f32>(morph_normals[at], morph_normals[at + 1u], morph_normals[at + 2u]);
    }
    let len = length(n);
    return Morphed(p, select(normal, n / len, len > 0.0));
}

// A tangent's xyz + sum of w * dT (its handedness is never blended); renormalised by the
// shading. Drawn primitives whose targets carry tangents only.
fn morph_tangent(first: u32, count: u32, vertex_count: u32, v: u32, tangent: vec3<f32>) -> vec3<f32> {
    var t = tangent;
    for (var i = 0u; i < count; i += 1u) {
        let a = morph_active[first + i];
        let at = 3u * (a.target_index * vertex_count + v);
        t += a.weight * vec3<f32>(morph_tangents[at], morph_tangents[at + 1u], morph_tangents[at + 2u]);
    }
    return t;
}
