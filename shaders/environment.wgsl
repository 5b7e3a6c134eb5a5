// Prefiltering an equirectangular HDR environment at load, as the Khronos Sample Viewer does
// (its ibl_filtering): a Lambertian irradiance cube, a GGX-prefiltered specular cube (one
// roughness per mip level) and the split-sum BRDF lookup table. Compute only; the maps are
// read by light.wgsl.

const PI: f32 = 3.14159265;

struct Filter {
    // x: roughness (GGX alpha = roughness^2); y: the output's side in texels; z: samples;
    // w: the level of the source read at roughness 0.
    params: vec4<f32>,
    // x, y: the source's size at level 0; z: the level the irradiance sum reads.
    source: vec4<f32>,
}

@group(0) @binding(0) var source: texture_2d<f32>;
@group(0) @binding(1) var source_sampler: sampler;
@group(0) @binding(2) var<uniform> job: Filter;
@group(0) @binding(3) var faces: texture_storage_2d_array<rgba16float, write>;
@group(0) @binding(4) var lut: texture_storage_2d<rgba16float, write>;

// The direction through `uv` (-1 to 1, v down) of cube face `face` (+X, -X, +Y, -Y, +Z, -Z),
// as the GPU's cube lookups pick faces and texels.
fn face_direction(face: u32, uv: vec2<f32>) -> vec3<f32> {
    let u = uv.x;
    let v = uv.y;
    switch face {
        case 0u: { return normalize(vec3<f32>(1.0, -v, -u)); }
        case 1u: { return normalize(vec3<f32>(-1.0, -v, u)); }
        case 2u: { return normalize(vec3<f32>(u, 1.0, v)); }
        case 3u: { return normalize(vec3<f32>(u, -1.0, -v)); }
        case 4u: { return normalize(vec3<f32>(u, -v, 1.0)); }
        default: { return normalize(vec3<f32>(-u, -v, -1.0)); }
    }
}

// Where direction `d` reads the panorama (src/environment.rs's mapping).
fn panorama_uv(d: vec3<f32>) -> vec2<f32> {
    return vec2<f32>(0.5 + atan2(d.z, d.x) / (2.0 * PI), acos(clamp(d.y, -1.0, 1.0)) / PI);
}

// The direction through the centre of texel (x, y) of a w x h panorama.
fn panorama_direction(x: u32, y: u32, size: vec2<u32>) -> vec3<f32> {
    let phi = 2.0 * PI * ((f32(x) + 0.5) / f32(size.x) - 0.5);
    let theta = PI * (f32(y) + 0.5) / f32(size.y);
    return vec3<f32>(sin(theta) * cos(phi), cos(theta), sin(theta) * sin(phi));
}

// Hammersley point `i` of `n`.
fn hammersley(i: u32, n: u32) -> vec2<f32> {
    return vec2<f32>(f32(i) / f32(n), f32(reverseBits(i)) * 2.3283064365386963e-10);
}

// A GGX-distributed half vector about +Z for the point `xi`.
fn ggx_half(xi: vec2<f32>, alpha: f32) -> vec3<f32> {
    let cos_theta = sqrt((1.0 - xi.y) / (1.0 + (alpha * alpha - 1.0) * xi.y));
    let sin_theta = sqrt(max(1.0 - cos_theta * cos_theta, 0.0));
    let phi = 2.0 * PI * xi.x;
    return vec3<f32>(sin_theta * cos(phi), sin_theta * sin(phi), cos_theta);
}

// A frame whose third column is `n`.
fn tangent_frame(n: vec3<f32>) -> mat3x3<f32> {
    let up = select(vec3<f32>(1.0, 0.0, 0.0), vec3<f32>(0.0, 0.0, 1.0), abs(n.z) < 0.999);
    let t = normalize(cross(up, n));
    return mat3x3<f32>(t, cross(n, t), n);
}

fn d_ggx(n_dot_h: f32, alpha: f32) -> f32 {
    let a2 = alpha * alpha;
    let d = n_dot_h * n_dot_h * (a2 - 1.0) + 1.0;
    return a2 / (PI * d * d);
}

// One texel of one level of the specular cube: the panorama convolved with the GGX lobe of
// `job.params.x` about the texel's direction (N = V = R), by filtered importance sampling
// (each sample read at the panorama level whose texels cover its share of the lobe).
@compute @workgroup_size(8, 8, 1)
fn cs_specular(@builtin(global_invocation_id) id: vec3<u32>) {
    let side = u32(job.params.y);
    if id.x >= side || id.y >= side {
        return;
    }
    let uv = (vec2<f32>(id.xy) + 0.5) / f32(side) * 2.0 - 1.0;
    let n = face_direction(id.z, uv);
    let roughness = job.params.x;
    if roughness <= 0.0 {
        let radiance = textureSampleLevel(source, source_sampler, panorama_uv(n), job.params.w);
        textureStore(faces, id.xy, id.z, vec4<f32>(radiance.rgb, 1.0));
        return;
    }
    let alpha = roughness * roughness;
    let samples = u32(job.params.z);
    let frame = tangent_frame(n);
    let texel = 4.0 * PI / (job.source.x * job.source.y);
    var sum = vec3<f32>(0.0);
    var weight = 0.0;
    for (var i = 0u; i < samples; i++) {
        let h = frame * ggx_half(hammersley(i, samples), alpha);
        let l = 2.0 * dot(n, h) * h - n;
        let n_dot_l = dot(n, l);
        if n_dot_l > 0.0 {
            let pdf = d_ggx(clamp(dot(n, h), 0.0, 1.0), alpha) / 4.0;
            let lod = 0.5 * log2(1.0 / (f32(samples) * pdf * texel)) + 1.0;
            let radiance = textureSampleLevel(source, source_sampler, panorama_uv(l), max(lod, 0.0));
            sum += radiance.rgb * n_dot_l;
            weight += n_dot_l;
        }
    }
    textureStore(faces, id.xy, id.z, vec4<f32>(sum / max(weight, 1e-6), 1.0));
}

// One texel of the irradiance cube: irradiance / PI for a surface facing the texel's
// direction, summed over every texel of a small level of the panorama (radiance x cosine x
// solid angle), as EnvironmentImage::irradiance sums on the CPU.
@compute @workgroup_size(8, 8, 1)
fn cs_irradiance(@builtin(global_invocation_id) id: vec3<u32>) {
    let side = u32(job.params.y);
    if id.x >= side || id.y >= side {
        return;
    }
    let uv = (vec2<f32>(id.xy) + 0.5) / f32(side) * 2.0 - 1.0;
    let n = face_direction(id.z, uv);
    let level = i32(job.source.z);
    let size = textureDimensions(source, level);
    let step = (2.0 * PI / f32(size.x)) * (PI / f32(size.y));
    var sum = vec3<f32>(0.0);
    for (var y = 0u; y < size.y; y++) {
        let solid_angle = step * sin(PI * (f32(y) + 0.5) / f32(size.y));
        for (var x = 0u; x < size.x; x++) {
            let cosine = dot(n, panorama_direction(x, y, size));
            if cosine > 0.0 {
                let radiance = textureLoad(source, vec2<u32>(x, y), level).rgb;
                sum += radiance * (cosine * solid_angle);
            }
        }
    }
    textureStore(faces, id.xy, id.z, vec4<f32>(sum / PI, 1.0));
}

fn smith_g1(n_dot_x: f32, k: f32) -> f32 {
    return n_dot_x / (n_dot_x * (1.0 - k) + k);
}

// One texel of the split-sum lookup table (Karis, "Real Shading in Unreal Engine 4"): x is
// N.V, y the roughness; red the scale and green the bias applied to F0.
@compute @workgroup_size(8, 8, 1)
fn cs_brdf(@builtin(global_invocation_id) id: vec3<u32>) {
    let side = u32(job.params.y);
    if id.x >= side || id.y >= side {
        return;
    }
    let n_dot_v = (f32(id.x) + 0.5) / f32(side);
    let roughness = (f32(id.y) + 0.5) / f32(side);
    let v = vec3<f32>(sqrt(1.0 - n_dot_v * n_dot_v), 0.0, n_dot_v);
    let alpha = roughness * roughness;
    let k = alpha / 2.0;
    let samples = u32(job.params.z);
    var scale = 0.0;
    var bias = 0.0;
    for (var i = 0u; i < samples; i++) {
        let h = ggx_half(hammersley(i, samples), alpha);
        let v_dot_h = dot(v, h);
        let l = 2.0 * v_dot_h * h - v;
        if l.z > 0.0 {
            let g = smith_g1(n_dot_v, k) * smith_g1(l.z, k);
            let g_vis = g * max(v_dot_h, 0.0) / (max(h.z, 1e-6) * n_dot_v);
            let fc = pow(1.0 - max(v_dot_h, 0.0), 5.0);
            scale += (1.0 - fc) * g_vis;
            bias += fc * g_vis;
        }
    }
    textureStore(lut, id.xy, vec4<f32>(scale / f32(samples), bias / f32(samples), 0.0, 1.0));
}
