(* A plan as data for the runtime's plan interpreter
   (runtime/include/redist/interpreter.hpp): the same groups, layouts,
   buffers, permutation tables and workspace that [Emit.render] writes into
   a generated header as constants, taken from Emit's functions and the
   extracted core, so that both executions run one lowering. *)

module C = Redist_core
module F = Redist_cli.Front
module Emit = Redist_cli.Emit
module Report = Redist_cli.Report

(* The numbering is the interpreter's [PlanOp] and [PlanBuffer] (interpreter.hpp). *)
let op_code = function C.DynSlice _ -> 0 | C.AllGather _ -> 1 | C.AllToAll _ -> 2 | C.AllPermute _ -> 3
let buffer_code = function Emit.Src -> 0 | Emit.Dst -> 1 | Emit.Ping -> 2 | Emit.Pong -> 3

(* Field order is read by runtime/src/capi.cpp. *)
type step = {
  op : int;
  stride : int;                 (* the step's group in rank space; (1, 1) for all_permute *)
  size : int;
  shape : int array;            (* the local shape before the step *)
  dim_a : int;                  (* dyn_slice and all_gather: the dimension; all_to_all: s *)
  dim_b : int;                  (* all_to_all: t; else 0 *)
  input : int;
  output : int;
  recv_from : int array;        (* all_permute: rank r receives from recv_from.(r); else empty *)
}

type program = {
  mesh_sizes : int array;       (* the user's mesh, which the runtime's Mesh is created over *)
  elem_bytes : int;
  src_shape : int array;
  tgt_shape : int array;
  ping_bytes : int;
  pong_bytes : int;
  scratch_bytes : int;
  groups : (int * int) array;   (* the groups the communicating steps use, to prepare once *)
  steps : step array;
}

(* The rank-space group a step communicates over (dyn_slice: the group
   whose member index picks the chunk). *)
let step_group env (s : Report.step) =
  let last_axis_of d = C.last_axis (fst (C.dim_of s.before d)) in
  match s.coll with
  | C.DynSlice (_, x) -> Emit.group env x
  | C.AllGather d | C.AllToAll (d, _) -> Emit.group env (last_axis_of d)
  | C.AllPermute _ -> (1, 1)

let program (r : Report.t) =
  let env = r.env in
  let m = F.core_mesh env in
  let base = F.core_mesh r.problem.env in
  let steps = Array.of_list r.steps in
  let nsteps = Array.length steps in
  let ping_bytes, pong_bytes, scratches = Emit.workspace r in
  let lower i (s : Report.step) =
    let stride, size = step_group env s in
    let dim_a, dim_b =
      match s.coll with
      | C.DynSlice (d, _) | C.AllGather d -> (d, 0)
      | C.AllToAll (a, t) -> (a, t)
      | C.AllPermute _ -> (0, 0)
    in
    let recv_from =
      match s.coll with
      | C.AllPermute t' ->
          Array.init (C.mesh_size m) (fun rk -> C.rank m (C.holder m s.before t' (C.device_of_rank m rk)))
      | _ -> [||]
    in
    { op = op_code s.coll; stride; size; shape = Array.of_list (C.local_shape m s.before); dim_a; dim_b;
      input = buffer_code (if i = 0 then Emit.Src else Emit.out_buf nsteps (i - 1));
      output = buffer_code (Emit.out_buf nsteps i); recv_from }
  in
  let communicates (s : Report.step) = match s.coll with C.AllGather _ | C.AllToAll _ -> true | _ -> false in
  { mesh_sizes = Array.of_list (List.map (fun (a : F.axis_info) -> a.size) r.problem.env.axes);
    elem_bytes = r.problem.elem_bytes;
    src_shape = Array.of_list (C.local_shape base r.problem.src);
    tgt_shape = Array.of_list (C.local_shape base r.problem.tgt);
    ping_bytes; pong_bytes;
    scratch_bytes = List.fold_left (fun acc (n, _) -> max acc n) 0 scratches;
    groups =
      Array.of_list
        (List.sort_uniq compare (List.map (step_group env) (List.filter communicates (Array.to_list steps))));
    steps = Array.mapi lower steps }

(* A direct exchange as the runtime's Exchange::create takes it (emit.ml's
   exchange header writes the same meshes and layouts as constants). *)
type placed_layout = {
  axis_sizes : int array;
  ranks : int array;            (* the world rank of each device, row-major *)
  extents : int array;          (* global extents *)
  axes : int array array;       (* per dimension, the mesh axes sharding it, major to minor *)
}

type exchange = { source : placed_layout; target : placed_layout; x_elem_bytes : int }

(* Tag 0 and tag 1 in runtime/src/capi.cpp. *)
type lowered = By_collectives of program | By_exchange of exchange

let placed_layout (env : F.env) ranks (ty : C.ty) =
  { axis_sizes = Array.of_list (List.map (fun (a : F.axis_info) -> a.size) env.axes);
    ranks = Array.of_list ranks;
    extents = Array.of_list (List.map snd ty);
    axes = Array.of_list (List.map (fun (ids, _) -> Array.of_list ids) ty) }

let exchange (p : Redist_cli.Problem.t) =
  { source = placed_layout p.env p.src_ranks p.src; target = placed_layout p.tgt_env p.tgt_ranks p.tgt;
    x_elem_bytes = p.elem_bytes }

(* The box of the global array that world rank [rank] holds in [layout]:
   (offset, extent) per dimension, the model's [pl_box]; all zero extents
   for a rank outside the layout's mesh. *)
let box (layout : C.layout) ndim rank =
  match C.pl_box layout rank with
  | Some b -> Array.of_list b
  | None -> Array.make ndim (0, 0)
