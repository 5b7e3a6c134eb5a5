// The skin pass: morphs and skins every vertex of one draw slot (an instance's primitive), for
// every copy, once per frame, into `skinned_out`, with the same `morph_vertex`, `morph_tangent`,
// `skin_vertex` and `skin_direction` as `vs_main`. Every mesh pipeline's `vs_skinned` then reads
// it, and the CPU reads it back (`--skin-on gpu`). Composed after camera.wgsl, draw.wgsl,
// morph.wgsl, skinning.wgsl, ddm.wgsl, muscle.wgsl and ml.wgsl.

struct SkinPassSlot {
    // The slot's first draw (slot * copies): copy k is draw first_draw + k.
    first_draw: u32,
    copies: u32,
    vertex_count: u32,
    // Where direct delta mush's Ω starts in vertex_words (after the vertices); 0: none.
    ddm_base: u32,
    // Where the muscles' skin weights start in vertex_words (after Ω); 0: none.
    muscle_base: u32,
    // Where the ML deformer's components start in vertex_words (after the muscles'), and how
    // many a vertex has; 0: none.
    ml_base: u32,
    ml_count: u32,
    _pad0: u32,
}

@group(0) @binding(2) var<uniform> slot: SkinPassSlot;
// `vertex_words` (binding 3, declared in ddm.wgsl): the primitive's vertex buffer as words, 30
// per vertex, laid out as `GpuVertex` (position 0-2, normal 3-5, uv 6-7, joints 8-9 as 16-bit
// pairs, weights 10-13, joints1 14-15, weights1 16-19, uv1 20-21, colour 22-25, tangent 26-29),
// then direct delta mush's Ω when the primitive has one, then the muscles' skin weights, then
// the ML deformer's components.
@group(0) @binding(4) var<storage, read_write> skinned_out: array<SkinnedVertex>;

const WORDS_PER_VERTEX: u32 = 30u;

fn read_vec3(at: u32) -> vec3<f32> {
    return bitcast<vec3<f32>>(vec3<u32>(vertex_words[at], vertex_words[at + 1u], vertex_words[at + 2u]));
}

fn read_vec4(at: u32) -> vec4<f32> {
    return vec4<f32>(read_vec3(at), bitcast<f32>(vertex_words[at + 3u]));
}

// Four little-endian 16-bit joint indices from two words.
fn read_joints(at: u32) -> vec4<u32> {
    let a = vertex_words[at];
    let b = vertex_words[at + 1u];
    return vec4<u32>(a & 0xffffu, a >> 16u, b & 0xffffu, b >> 16u);
}

// x: the vertex; y + z * (workgroups along y): the copy (a crowd may exceed one dimension).
@compute @workgroup_size(64)
fn cs_skin(
    @builtin(global_invocation_id) id: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let vertex = id.x;
    let copy = id.y + id.z * groups.y;
    if vertex >= slot.vertex_count || copy >= slot.copies {
        return;
    }
    let d = draws[slot.first_draw + copy];
    let at = WORDS_PER_VERTEX * vertex;
    let position = read_vec3(at);
    let normal = read_vec3(at + 3u);
    let influences = Influences(read_joints(at + 8u), read_vec4(at + 10u), read_joints(at + 14u), read_vec4(at + 16u));
    let tangent = read_vec4(at + 26u);
    var m = morph_vertex(d.morph_first, d.morph_count, d.morph_vertices, vertex, position, normal);
    // The ML deformer's corrective, in bind space before skinning (copy 0 only: one pose).
    if slot.ml_base != 0u && copy == 0u {
        m.position += ml_corrective(slot.ml_base, slot.ml_count, vertex);
    }
    var bind_tangent = tangent.xyz;
    if d.morph_tangents == 1u {
        bind_tangent = morph_tangent(d.morph_first, d.morph_count, d.morph_vertices, vertex, bind_tangent);
    }
    // Direct delta mush (skinning 3) where the primitive has its Ω; linear blend elsewhere.
    var skinning = camera.mode.z;
    var ddm = DdmTransform(mat3x3<f32>(vec3<f32>(0.0), vec3<f32>(0.0), vec3<f32>(0.0)), vec3<f32>(0.0), false);
    if skinning == 3u && slot.ddm_base != 0u {
        ddm = ddm_transform(d.palette_base, slot.ddm_base, slot.vertex_count, vertex);
    }
    if skinning == 3u {
        skinning = 0u;
    }
    var skinned = skin_vertex(skinning, d.palette_base, m.position, m.normal, influences);
    var skinned_tangent = skin_direction(skinning, d.palette_base, bind_tangent, influences);
    if ddm.ok {
        skinned = Skinned(ddm.rotation * m.position + ddm.translation, unit_or_zero(ddm.rotation * m.normal));
        skinned_tangent = ddm.rotation * bind_tangent;
    }
    // The muscles' displacement, after skinning (copy 0 only: one simulation).
    if slot.muscle_base != 0u && copy == 0u {
        let world = muscle_offset(slot.muscle_base, slot.vertex_count, vertex);
        let m3 = mat3x3<f32>(d.world_from_mesh[0].xyz, d.world_from_mesh[1].xyz, d.world_from_mesh[2].xyz);
        skinned.position += inverse3(m3) * world;
    }
    skinned_out[d.out_base + vertex] = SkinnedVertex(
        vec4<f32>(skinned.position, 1.0),
        vec4<f32>(skinned.normal, 0.0),
        vec4<f32>(skinned_tangent, tangent.w),
    );
}
