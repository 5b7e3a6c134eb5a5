// The light every shaded pipeline shares (the meshes', the ground's and the background's): the
// generated sky, its irradiance and the split-sum specular fit; or a file's environment,
// prefiltered at load (environment.wgsl); and the tone maps. Composed after camera.wgsl.

const PI: f32 = 3.14159265;

// A file's environment (render/environment.rs): irradiance / PI, the GGX-prefiltered specular
// levels, the split-sum table; 1x1 stand-ins under the generated sky.
@group(0) @binding(4) var irradiance_map: texture_cube<f32>;
@group(0) @binding(5) var specular_map: texture_cube<f32>;
@group(0) @binding(6) var brdf_table: texture_2d<f32>;
@group(0) @binding(7) var environment_sampler: sampler;

// The environment the project generates: a sky from a bright horizon to a blue zenith over a
// darker ground (linear RGB radiance).
fn sky(dir: vec3<f32>) -> vec3<f32> {
    let zenith = vec3<f32>(0.35, 0.5, 0.8);
    let horizon = vec3<f32>(0.9, 0.88, 0.85);
    let ground = vec3<f32>(0.25, 0.23, 0.22);
    let up = clamp(dir.y, -1.0, 1.0);
    return select(mix(horizon, ground, smoothstep(0.0, 0.3, -up)), mix(horizon, zenith, smoothstep(0.0, 0.7, up)), up >= 0.0);
}

// Irradiance / PI from that sky for a surface facing `n` (its cosine-weighted average, close
// to the sky's value a little toward the normal's hemisphere).
fn sky_irradiance(n: vec3<f32>) -> vec3<f32> {
    let up = sky(vec3<f32>(0.0, 1.0, 0.0));
    let down = sky(vec3<f32>(0.0, -1.0, 0.0));
    let side = sky(vec3<f32>(1.0, 0.0, 0.0));
    let h = n.y;
    return select(mix(side, down, -h * 0.6), mix(side, up, h * 0.6), h >= 0.0);
}

// Karis's analytic fit of the split-sum specular BRDF (scale, bias) for `n_dot_v` and roughness.
fn env_brdf(roughness: f32, n_dot_v: f32) -> vec2<f32> {
    let c0 = vec4<f32>(-1.0, -0.0275, -0.572, 0.022);
    let c1 = vec4<f32>(1.0, 0.0425, 1.04, -0.04);
    let r = roughness * c0 + c1;
    let a004 = min(r.x * r.x, exp2(-9.28 * n_dot_v)) * r.x + r.y;
    return vec2<f32>(-1.04, 1.04) * a004 + r.zw;
}

// Where direction `d` reads the environment, turned by its rotation about +Y.
fn environment_direction(d: vec3<f32>) -> vec3<f32> {
    let c = cos(camera.environment.y);
    let s = sin(camera.environment.y);
    return vec3<f32>(c * d.x - s * d.z, d.y, s * d.x + c * d.z);
}

// Irradiance / PI for a surface facing `n`.
fn environment_diffuse(n: vec3<f32>) -> vec3<f32> {
    if camera.environment.x > 0.5 {
        let e = textureSampleLevel(irradiance_map, environment_sampler, environment_direction(n), 0.0);
        return e.rgb * camera.environment.z;
    }
    return sky_irradiance(n) * camera.environment.z;
}

// Radiance from direction `r` through a GGX lobe of `roughness` (0: the environment itself).
fn environment_specular(r: vec3<f32>, roughness: f32) -> vec3<f32> {
    if camera.environment.x > 0.5 {
        let level = roughness * camera.environment.w;
        let l = textureSampleLevel(specular_map, environment_sampler, environment_direction(r), level);
        return l.rgb * camera.environment.z;
    }
    return mix(sky(r), sky_irradiance(r), roughness) * camera.environment.z;
}

// The split-sum scale and bias: the prefiltered table with a file's environment, Karis's fit
// with the generated sky.
fn environment_brdf(roughness: f32, n_dot_v: f32) -> vec2<f32> {
    if camera.environment.x > 0.5 {
        let uv = vec2<f32>(n_dot_v, roughness);
        return textureSampleLevel(brdf_table, environment_sampler, uv, 0.0).rg;
    }
    return env_brdf(roughness, n_dot_v);
}

fn tone_map(color: vec3<f32>) -> vec3<f32> {
    let c = color * camera.eye.w;
    switch camera.mode.y {
        case 1u: {
            // ACES filmic, Hill's fit (the Khronos Sample Viewer's "ACES Hill").
            let input = mat3x3<f32>(
                vec3<f32>(0.59719, 0.07600, 0.02840),
                vec3<f32>(0.35458, 0.90834, 0.13383),
                vec3<f32>(0.04823, 0.01566, 0.83777),
            );
            let output = mat3x3<f32>(
                vec3<f32>(1.60475, -0.10208, -0.00327),
                vec3<f32>(-0.53108, 1.10813, -0.07276),
                vec3<f32>(-0.07367, -0.00605, 1.07602),
            );
            let v = input * c;
            let a = v * (v + 0.0245786) - 0.000090537;
            let b = v * (0.983729 * v + 0.4329510) + 0.238081;
            return clamp(output * (a / b), vec3<f32>(0.0), vec3<f32>(1.0));
        }
        case 2u: {
            // Khronos PBR Neutral.
            let start = 0.8 - 0.04;
            let desaturation = 0.15;
            let x = min(c.r, min(c.g, c.b));
            let offset = select(0.04, x - 6.25 * x * x, x < 0.08);
            var v = c - offset;
            let peak = max(v.r, max(v.g, v.b));
            if peak < start {
                return v;
            }
            let d = 1.0 - start;
            let new_peak = 1.0 - d * d / (peak + d - start);
            v = v * (new_peak / peak);
            let g = 1.0 - 1.0 / (desaturation * (peak - new_peak) + 1.0);
            return mix(v, vec3<f32>(new_peak), g);
        }
        default: {
            return clamp(c, vec3<f32>(0.0), vec3<f32>(1.0));
        }
    }
}
