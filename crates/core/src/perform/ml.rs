//! The reference deformers the ML deformer learns from, as `deform::ml_train`
//! asks for them: a posed frame's vertices of the trained instance, mesh space. Direct delta
//! mush is the CPU reference's; the muscles are settled at each pose by the performer's own
//! muscle stage, so what is learnt is what `--muscles` draws.

use std::sync::Arc;

use glam::Vec3;

use super::{Inputs, MuscleInput, Performer};
use crate::anim::SkinningMethod;
use crate::character::Character;
use crate::deform::DdmData;
use crate::pose::{CharacterPose, PoseRequest};
use crate::posed::PosedVertices;

/// Instance `i` of `posed` in mesh space into `out`.
fn mesh_space(pose: &CharacterPose, posed: &PosedVertices, i: usize, out: &mut Vec<Vec3>) {
    let mesh_from_world =
        (pose.world_from_mesh.get(i)).map_or(glam::Mat4::IDENTITY, |m| m.inverse());
    out.clear();
    if let Some((world, _)) = posed.instances.get(i) {
        out.extend(world.iter().map(|&p| mesh_from_world.transform_point3(p)));
    }
}

/// Direct delta mush with `ddm`'s Ω.
pub fn ddm_reference<'a>(
    c: &'a Character,
    ddm: &'a DdmData,
) -> impl FnMut(&mut CharacterPose, &mut Vec<Vec3>) + 'a {
    let i = crate::deform::ml_train::trained_instance(c).unwrap_or(0);
    move |pose, out| {
        let posed = PosedVertices::on_cpu_with(c, pose, SkinningMethod::DeltaMush, Some(ddm));
        mesh_space(pose, &posed, i, out);
    }
}

/// Linear blend with `muscles` settled at the pose (`MuscleInput::dynamic` is ignored).
pub fn muscle_reference(
    c: &Character,
    muscles: MuscleInput,
) -> impl FnMut(&mut CharacterPose, &mut Vec<Vec3>) + '_ {
    let i = crate::deform::ml_train::trained_instance(c).unwrap_or(0);
    // The muscles see neither the ground nor the height.
    let mut performer = Performer::new(c, Arc::new(crate::scene::Ground::flat(0.0)), 1.0, None);
    let inputs = Inputs {
        muscles: Some(MuscleInput {
            dynamic: false,
            ..muscles
        }),
        ..Inputs::default()
    };
    let mut request = PoseRequest::default();
    move |pose, out| {
        performer.apply_muscles(&inputs, &mut request, pose, 0.0);
        let posed = PosedVertices::on_cpu(c, pose, SkinningMethod::Linear);
        pose.muscles = None;
        mesh_space(pose, &posed, i, out);
    }
}
