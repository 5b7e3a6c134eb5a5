// XPBD muscles: the skin pass's post-skin deformer. The CPU steps the muscles
// (anim::MuscleSim) and uploads each particle's world-space displacement from its rigid
// position; a skin vertex follows up to four particles by weights precomputed at bind
// (pose::MuscleRig), after skinning. The same sum as pose::MuscleFrame::skin_offset, the CPU
// reference. Composed after ddm.wgsl (whose `vertex_words` it reads), before skin_pass.wgsl.
//
// The weights lie in `vertex_words` from word `base`: per vertex one word (first entry * 8 +
// count), then per entry two words (the particle, the weight's bits).

const MAX_MUSCLE_PARTICLES: u32 = 4000u;

struct MuscleOffsets {
    // xyz: a particle's world displacement; w unused.
    offsets: array<vec4<f32>, 4000>,
    // The ML deformer's component weights (ml.wgsl), four a vec4: one uniform binding holds
    // both post-pose deformers' per-frame data (64,256 bytes, within WebGPU's 64 KiB).
    ml_weights: array<vec4<f32>, 16>,
}

@group(0) @binding(5) var<uniform> muscles: MuscleOffsets;

// The world-space offset skin vertex `vertex` of a primitive of `vertex_count` vertices follows.
fn muscle_offset(base: u32, vertex_count: u32, vertex: u32) -> vec3<f32> {
    let packed = vertex_words[base + vertex];
    let first = packed >> 3u;
    let count = packed & 7u;
    var offset = vec3<f32>(0.0);
    for (var k = 0u; k < count; k++) {
        let at = base + vertex_count + 2u * (first + k);
        let particle = min(vertex_words[at], MAX_MUSCLE_PARTICLES - 1u);
        offset += muscles.offsets[particle].xyz * bitcast<f32>(vertex_words[at + 1u]);
    }
    return offset;
}

// The inverse of a 3x3 matrix (world_from_mesh's linear part: a world offset into mesh space);
// zero when singular.
fn inverse3(m: mat3x3<f32>) -> mat3x3<f32> {
    let c0 = cross(m[1], m[2]);
    let c1 = cross(m[2], m[0]);
    let c2 = cross(m[0], m[1]);
    let det = dot(m[0], c0);
    if abs(det) < 1e-30 {
        return mat3x3<f32>(vec3<f32>(0.0), vec3<f32>(0.0), vec3<f32>(0.0));
    }
    return transpose(mat3x3<f32>(c0, c1, c2)) * (1.0 / det);
}
