// The one skinning function of skinscope (linear blend or dual-quaternion). Every pipeline that skins is this file
// followed by the pipeline's own shader (src/render/shaders.rs composes them), so the shaded,
// wireframe, debug and check pipelines cannot disagree about skinning.
//
// palette[palette_base + j] is `mesh_from_bind` for joint j of the vertex's skin: a column-major
// 4x4 matrix, 64 bytes per entry, written by the CPU (anim::build_palette) into a storage buffer.
// Under dual-quaternion skinning (skinning = 1) the CPU packs each entry instead
// (anim::dq_entry): column 0 the real quaternion (x, y, z, w), column 1 the dual one, column 2
// the scale, applied before the rigid part ("DQS with scale"). Under weight-blended skinning
// (skinning = 2) each joint has two entries, its matrix at 2 * (palette_base + j) and its
// dual quaternion after it, whose column 3's x is the joint's method weight (0: linear
// blend, 1: dual quaternions; anim::blended).
// data: begin palette (replaced by data_textures.wgsl's where there are no storage buffers)
@group(1) @binding(0) var<storage, read> palette: array<mat4x4<f32>>;

fn palette_entry(i: u32) -> mat4x4<f32> {
    return palette[i];
}
// data: end

// A vertex's influences: up to eight (palette index, weight) pairs, the second four zero-weighted
// when the file has only JOINTS_0 / WEIGHTS_0.
struct Influences {
    joints: vec4<u32>,
    weights: vec4<f32>,
    joints1: vec4<u32>,
    weights1: vec4<f32>,
}

// Where joint j's entry of one kind is: entries of `stride` kinds per joint, this kind at
// `kind` (stride 1, kind 0 but under weight-blended skinning).
struct Entries {
    base: u32,
    stride: u32,
    kind: u32,
}

fn entry(e: Entries, j: u32) -> mat4x4<f32> {
    return palette_entry((e.base + j) * e.stride + e.kind);
}

// Weighted sum of the vertex's eight palette entries; weights are expected to sum to one.
fn skin_matrix(e: Entries, i: Influences) -> mat4x4<f32> {
    var m = mat4x4<f32>(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
    for (var k = 0u; k < 4u; k++) {
        m += entry(e, i.joints[k]) * i.weights[k];
        if i.weights1[k] != 0.0 {
            m += entry(e, i.joints1[k]) * i.weights1[k];
        }
    }
    return m;
}

// The vertex's method weight under weight-blended skinning: its influences' method weights
// (column 3's x of each dual-quaternion entry) by their skin weights.
fn vertex_method(palette_base: u32, i: Influences) -> f32 {
    var m = 0.0;
    for (var k = 0u; k < 4u; k++) {
        m += palette_entry((palette_base + i.joints[k]) * 2u + 1u)[3].x * i.weights[k];
        if i.weights1[k] != 0.0 {
            m += palette_entry((palette_base + i.joints1[k]) * 2u + 1u)[3].x * i.weights1[k];
        }
    }
    // Snapped to 0 and 1 within anim::METHOD_SNAP (weights sum to one only to rounding).
    if m < 1e-5 {
        return 0.0;
    }
    return select(m, 1.0, m > 1.0 - 1e-5);
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

fn skin_dual(entries: Entries, i: Influences) -> Dual {
    let first = entry(entries, i.joints.x)[0];
    var real = vec4<f32>(0.0);
    var dual = vec4<f32>(0.0);
    var scale = vec3<f32>(0.0);
    for (var k = 0u; k < 8u; k++) {
        let second = k >= 4u;
        let w = select(i.weights[k % 4u], i.weights1[k % 4u], second);
        if w == 0.0 {
            continue;
        }
        let e = entry(entries, select(i.joints[k % 4u], i.joints1[k % 4u], second));
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

// One method's skinned position and (not yet renormalised) normal: dual quaternions (`dual`;
// the normal's scale inverted, then rotated) or the blended palette matrix.
fn skin_by(dual: bool, e: Entries, position: vec3<f32>, normal: vec3<f32>, influences: Influences) -> Skinned {
    if dual {
        let d = skin_dual(e, influences);
        let s = select(vec3<f32>(1.0), d.scale, abs(d.scale) > vec3<f32>(1e-12));
        return Skinned(quat_rotate(d.real, position * d.scale) + dual_translation(d), quat_rotate(d.real, normal / s));
    }
    let m = skin_matrix(e, influences);
    return Skinned((m * vec4<f32>(position, 1.0)).xyz, (m * vec4<f32>(normal, 0.0)).xyz);
}

fn unit_or_zero(n: vec3<f32>) -> vec3<f32> {
    let len = length(n);
    return select(vec3<f32>(0.0), n / len, len > 0.0);
}

// Skins a position (w = 1) and a normal (w = 0, renormalised; a zero normal stays zero):
// skinning 0 blends the palette matrices (linear blend skinning), 1 the dual quaternions, 2
// mixes the two by the vertex's method weight (each normal renormalised, then mixed).
fn skin_vertex(
    skinning: u32,
    palette_base: u32,
    position: vec3<f32>,
    normal: vec3<f32>,
    influences: Influences,
) -> Skinned {
    if skinning == 2u {
        let m = vertex_method(palette_base, influences);
        let lbs = skin_by(false, Entries(palette_base, 2u, 0u), position, normal, influences);
        if m <= 0.0 {
            return Skinned(lbs.position, unit_or_zero(lbs.normal));
        }
        let dqs = skin_by(true, Entries(palette_base, 2u, 1u), position, normal, influences);
        let p = mix(lbs.position, dqs.position, m);
        return Skinned(p, unit_or_zero(mix(unit_or_zero(lbs.normal), unit_or_zero(dqs.normal), m)));
    }
    let s = skin_by(skinning == 1u, Entries(palette_base, 1u, 0u), position, normal, influences);
    return Skinned(s.position, unit_or_zero(s.normal));
}

// Skins a direction that moves with the surface (a tangent: w = 0, not renormalised).
fn skin_direction(
    skinning: u32,
    palette_base: u32,
    direction: vec3<f32>,
    influences: Influences,
) -> vec3<f32> {
    if skinning == 2u {
        let m = vertex_method(palette_base, influences);
        let lbs = (skin_matrix(Entries(palette_base, 2u, 0u), influences) * vec4<f32>(direction, 0.0)).xyz;
        let d = skin_dual(Entries(palette_base, 2u, 1u), influences);
        return mix(lbs, quat_rotate(d.real, direction * d.scale), m);
    }
    let e = Entries(palette_base, 1u, 0u);
    if skinning == 1u {
        let d = skin_dual(e, influences);
        return quat_rotate(d.real, direction * d.scale);
    }
    return (skin_matrix(e, influences) * vec4<f32>(direction, 0.0)).xyz;
}
