// The one skinning function of skinscope (linear blend or dual-quaternion). Every pipeline that skins is this file
// followed by the pipeline's own shader (src/render/shaders.rs composes them), so the shaded,
// wireframe, debug and check pipelines cannot disagree about skinning.
//
// palette[palette_base + j] is `mesh_from_bind` for joint j of the vertex's skin: a column-major
// 4x4 matrix, 64 bytes per entry, written by the CPU (anim::build_palette) into a storage buffer.
// Under dual-quaternion skinning (skinning = 1) the CPU packs each entry instead
// (anim::dq_entry): column 0 the real quaternion (x, y, z, w), column 1 the dual one, column 2
// the scale, applied before the rigid part ("DQS with scale").
@group(1) @binding(0) var<storage, read> palette: array<mat4x4<f32>>;

// A vertex's influences: up to eight (palette index, weight) pairs, the second four zero-weighted
// when the file has only JOINTS_0 / WEIGHTS_0.
struct Influences {
    joints: vec4<u32>,
    weights: vec4<f32>,
    joints1: vec4<u32>,
    weights1: vec4<f32>,
}

// Weighted sum of the vertex's eight palette entries; weights are expected to sum to one.
fn skin_matrix(palette_base: u32, i: Influences) -> mat4x4<f32> {
    var m = mat4x4<f32>(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
    for (var k = 0u; k < 4u; k++) {
        m += palette[palette_base + i.joints[k]] * i.weights[k];
        if i.weights1[k] != 0.0 {
            m += palette[palette_base + i.joints1[k]] * i.weights1[k];
        }
    }
    return m;
}

struct Skinned {
    position: vec3<f32>,
    normal: vec3<f32>,
}

// A vertex's dual quaternion: the influences' entries blended with each sign aligned to the
// first's, normalised; the scales blended linearly.
struct Dual {
    real: vec4<f32>,
    dual: vec4<f32>,
    scale: vec3<f32>,
}

fn skin_dual(palette_base: u32, i: Influences) -> Dual {
    let first = palette[palette_base + i.joints.x][0];
    var real = vec4<f32>(0.0);
    var dual = vec4<f32>(0.0);
    var scale = vec3<f32>(0.0);
    for (var k = 0u; k < 8u; k++) {
        let second = k >= 4u;
        let w = select(i.weights[k % 4u], i.weights1[k % 4u], second);
        if w == 0.0 {
            continue;
        }
        let e = palette[palette_base + select(i.joints[k % 4u], i.joints1[k % 4u], second)];
        let signed = select(w, -w, dot(e[0], first) < 0.0);
        real += e[0] * signed;
        dual += e[1] * signed;
        scale += e[2].xyz * w;
    }
    let n = length(real);
    if n < 1e-12 {
        return Dual(vec4<f32>(0.0, 0.0, 0.0, 1.0), vec4<f32>(0.0), scale);
    }
    return Dual(real / n, dual / n, scale);
}

// q (x, y, z, w; unit) rotating v.
fn quat_rotate(q: vec4<f32>, v: vec3<f32>) -> vec3<f32> {
    let t = 2.0 * cross(q.xyz, v);
    return v + q.w * t + cross(q.xyz, t);
}

// The translation of a unit dual quaternion: 2 * dual * conj(real).
fn dual_translation(d: Dual) -> vec3<f32> {
    let r = d.real;
    let e = d.dual;
    return 2.0 * (r.w * e.xyz - e.w * r.xyz + cross(r.xyz, e.xyz));
}

// Skins a position (w = 1) and a normal (w = 0, renormalised; a zero normal stays zero):
// skinning 0 blends the palette matrices (linear blend skinning), 1 the dual quaternions (the
// normal's scale inverted, then rotated).
fn skin_vertex(
    skinning: u32,
    palette_base: u32,
    position: vec3<f32>,
    normal: vec3<f32>,
    influences: Influences,
) -> Skinned {
    var p: vec3<f32>;
    var n: vec3<f32>;
    if skinning == 1u {
        let d = skin_dual(palette_base, influences);
        p = quat_rotate(d.real, position * d.scale) + dual_translation(d);
        let s = select(vec3<f32>(1.0), d.scale, abs(d.scale) > vec3<f32>(1e-12));
        n = quat_rotate(d.real, normal / s);
    } else {
        let m = skin_matrix(palette_base, influences);
        p = (m * vec4<f32>(position, 1.0)).xyz;
        n = (m * vec4<f32>(normal, 0.0)).xyz;
    }
    let len = length(n);
    return Skinned(p, select(vec3<f32>(0.0), n / len, len > 0.0));
}

// Skins a direction that moves with the surface (a tangent: w = 0, not renormalised).
fn skin_direction(
    skinning: u32,
    palette_base: u32,
    direction: vec3<f32>,
    influences: Influences,
) -> vec3<f32> {
    if skinning == 1u {
        let d = skin_dual(palette_base, influences);
        return quat_rotate(d.real, direction * d.scale);
    }
    return (skin_matrix(palette_base, influences) * vec4<f32>(direction, 0.0)).xyz;
}
