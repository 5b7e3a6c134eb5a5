// Direct delta mush (Le and Lewis 2019, variant 0): the skin pass's third skinning method
// (skinning = 3), beside skin_vertex. The same steps as anim::ddm_transform, the CPU reference.
// Composed after skinning.wgsl, before skin_pass.wgsl (which reads the
// vertices from the `vertex_words` declared here).
//
// Ω lies in the skin pass's `vertex_words` after the vertices, from word `base`: per vertex v
// of the primitive 4 words (the smoothed centroid p its entries are centred on, then
// first * 128 + count of its entries), then per entry 12 words: Ω's upper triangle row by row
// (10 values), the joint's palette index, 0 (deform::ddm, render::renderer::skin_pass).
@group(0) @binding(3) var<storage, read> vertex_words: array<u32>;

const JACOBI_SWEEPS: u32 = 6u;

// The symmetric 4x4 of an entry's upper triangle (a = Ω 0-3, b = Ω 4-7, c = Ω 8-9).
fn omega_matrix(a: vec4<f32>, b: vec4<f32>, c: vec4<f32>) -> mat4x4<f32> {
    return mat4x4<f32>(
        a,
        vec4<f32>(a.y, b.x, b.y, b.z),
        vec4<f32>(a.z, b.y, b.w, c.x),
        vec4<f32>(a.w, b.z, c.x, c.y),
    );
}

struct Eigen {
    a: mat3x3<f32>,
    v: mat3x3<f32>,
}

// One Jacobi rotation zeroing a[q][p] (= a[p][q]; a symmetric), accumulated into v.
fn jacobi_rotate(e: Eigen, p: u32, q: u32) -> Eigen {
    var a = e.a;
    var v = e.v;
    let apq = a[q][p];
    if abs(apq) <= 1e-30 {
        return e;
    }
    let theta = (a[q][q] - a[p][p]) / (2.0 * apq);
    let t = sign(theta) / (abs(theta) + sqrt(theta * theta + 1.0));
    let c = 1.0 / sqrt(t * t + 1.0);
    let s = t * c;
    // Columns p and q (a * J), then rows p and q (Jᵀ * a); a[col][row].
    let cp = a[p];
    let cq = a[q];
    a[p] = c * cp - s * cq;
    a[q] = s * cp + c * cq;
    for (var k = 0u; k < 3u; k++) {
        let apk = a[k][p];
        let aqk = a[k][q];
        a[k][p] = c * apk - s * aqk;
        a[k][q] = s * apk + c * aqk;
    }
    let vp = v[p];
    let vq = v[q];
    v[p] = c * vp - s * vq;
    v[q] = s * vp + c * vq;
    return Eigen(a, v);
}

fn normalize_or(v: vec3<f32>, fallback: vec3<f32>) -> vec3<f32> {
    let len = length(v);
    return select(fallback, v / len, len > 1e-30);
}

// Any unit vector orthogonal to unit n.
fn orthonormal_to(n: vec3<f32>) -> vec3<f32> {
    let other = select(vec3<f32>(1.0, 0.0, 0.0), vec3<f32>(0.0, 1.0, 0.0), abs(n.x) > 0.9);
    return normalize(cross(n, other));
}

// The rotation nearest m (its polar rotation when det m > 0), as anim::polar_rotation: the
// eigenvectors V of mᵀm by Jacobi, U's first two columns m vᵢ made orthonormal, the third
// their cross product; R = U Vᵀ.
fn polar_rotation(m: mat3x3<f32>) -> mat3x3<f32> {
    var e = Eigen(transpose(m) * m, mat3x3<f32>(vec3<f32>(1.0, 0.0, 0.0), vec3<f32>(0.0, 1.0, 0.0), vec3<f32>(0.0, 0.0, 1.0)));
    for (var sweep = 0u; sweep < JACOBI_SWEEPS; sweep++) {
        e = jacobi_rotate(e, 0u, 1u);
        e = jacobi_rotate(e, 0u, 2u);
        e = jacobi_rotate(e, 1u, 2u);
    }
    // The two largest eigenvalues' eigenvectors (columns of v), largest first; ties keep the
    // lower index, as the CPU's stable sort does.
    let d = vec3<f32>(e.a[0][0], e.a[1][1], e.a[2][2]);
    var first = 0u;
    if d[1] > d[first] {
        first = 1u;
    }
    if d[2] > d[first] {
        first = 2u;
    }
    var second = select(0u, 1u, first == 0u);
    for (var k = 0u; k < 3u; k++) {
        if k != first && d[k] > d[second] {
            second = k;
        }
    }
    let v0 = e.v[first];
    let v1 = e.v[second];
    let v2 = cross(v0, v1);
    let u0 = normalize_or(m * v0, v0);
    let w1 = m * v1;
    let u1 = normalize_or(w1 - u0 * dot(u0, w1), orthonormal_to(u0));
    let u2 = cross(u0, u1);
    return mat3x3<f32>(u0, u1, u2) * transpose(mat3x3<f32>(v0, v1, v2));
}

struct DdmTransform {
    rotation: mat3x3<f32>,
    translation: vec3<f32>,
    ok: bool,
}

// Vertex `vertex`'s rigid transform from its Ω entries and the palette (each M_j taken as
// M_j T_p, p the vertex's centroid); not ok without entries or when Q's corner vanishes.
fn ddm_word(at: u32) -> f32 {
    return bitcast<f32>(vertex_words[at]);
}

fn ddm_vec4(at: u32) -> vec4<f32> {
    return vec4<f32>(ddm_word(at), ddm_word(at + 1u), ddm_word(at + 2u), ddm_word(at + 3u));
}

fn ddm_transform(palette_base: u32, base: u32, vertex_count: u32, vertex: u32) -> DdmTransform {
    let at = base + 4u * vertex;
    let centroid = vec3<f32>(ddm_word(at), ddm_word(at + 1u), ddm_word(at + 2u));
    let packed = vertex_words[at + 3u];
    let first = packed >> 7u;
    let count = packed & 127u;
    let entries = base + 4u * vertex_count;
    let none = DdmTransform(mat3x3<f32>(vec3<f32>(0.0), vec3<f32>(0.0), vec3<f32>(0.0)), vec3<f32>(0.0), false);
    if count == 0u {
        return none;
    }
    var q = mat4x4<f32>(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
    for (var k = first; k < first + count; k++) {
        let e = entries + 12u * k;
        let a = ddm_vec4(e);
        let b = ddm_vec4(e + 4u);
        let c = ddm_vec4(e + 8u);
        let m = palette[palette_base + vertex_words[e + 10u]];
        let centred = mat4x4<f32>(m[0], m[1], m[2], m * vec4<f32>(centroid, 1.0));
        q += centred * omega_matrix(a, b, c);
    }
    let corner = q[3][3];
    if abs(corner) < 1e-12 {
        return none;
    }
    q = q * (1.0 / corner);
    let column = q[3].xyz;
    let row = vec3<f32>(q[0].w, q[1].w, q[2].w);
    let top = mat3x3<f32>(q[0].xyz, q[1].xyz, q[2].xyz);
    let m = top - mat3x3<f32>(column * row.x, column * row.y, column * row.z);
    let r = polar_rotation(m);
    return DdmTransform(r, column - r * (row + centroid), true);
}
