(* A plan as data for the runtime's plan interpreter
   (runtime/include/redist/interpreter.hpp): the extracted lowering's calls
   ([Report.calls], the core's [lower]), the same that the header printer prints
   into a generated header, so that both executions run one lowering. *)

module C = Redist_core
module F = Front

(* The numbering is the interpreter's [PlanOp] and [PlanBuffer] (interpreter.hpp). *)
let op_code = function C.DynSlice _ -> 0 | C.AllGather _ -> 1 | C.AllToAll _ -> 2 | C.AllPermute _ -> 3
let sum_op_code = function C.ReduceScatter _ -> 4 | C.AllReduce _ -> 5 | C.AddPending _ -> 6
let buffer_code = function C.BSrc -> 0 | C.BDst -> 1 | C.BPing -> 2 | C.BPong -> 3
let sbuffer_code = function C.SSrc -> 0 | C.SDst -> 1 | C.SRed0 -> 4 | C.SRed1 -> 5

(* The runtime's redist::Dtype (reduce.hpp) of an element type it adds. *)
let dtype_code (d : Dtype.t) = Option.value d.runtime_code ~default:(-1)

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
  (* Pending sums (Lowersums.v's [lower_sums]); none and 0 without them. *)
  dtype : int;                  (* dtype_code *)
  red0_bytes : int;
  red1_bytes : int;
  red_scratch_bytes : int;
  reductions : step array;
  collectives_source : int;     (* the buffer the reductions leave their result in *)
  additions : step array;
  reduction : int;              (* Dtype.op_code of the pending axes' operation *)
  avg_divisor : int;            (* avg's one division ([avg_divisor]); 1 without reductions *)
}

(* One call of a collective; the copy of a plan without steps is no step
   (the interpreter copies when it has none). *)
let step (c : C.call) =
  Option.map
    (fun k ->
      let stride, size = Option.value c.cl_group ~default:(1, 1) in
      let dim_a, dim_b =
        match k with C.DynSlice (d, _) | C.AllGather d -> (d, 0) | C.AllToAll (a, t) -> (a, t) | C.AllPermute _ -> (0, 0)
      in
      { op = op_code k; stride; size; shape = Array.of_list c.cl_shape; dim_a; dim_b; input = buffer_code c.cl_in;
        output = buffer_code c.cl_out; recv_from = Array.of_list c.cl_recv_from })
    c.cl_op

(* The calls of a plan over a mesh of [mesh_sizes] (any sizes with as many
   devices: groups are in rank space), from and to local arrays of
   [src_shape] and [tgt_shape]. *)
let program_of_calls ~mesh_sizes ~elem_bytes ~src_shape ~tgt_shape (calls : C.call list) =
  { mesh_sizes = Array.of_list mesh_sizes; elem_bytes; src_shape = Array.of_list src_shape;
    tgt_shape = Array.of_list tgt_shape; ping_bytes = C.ping_bytes calls; pong_bytes = C.pong_bytes calls;
    scratch_bytes = C.scratch_bytes calls; groups = Array.of_list (Report.communicating_groups calls);
    steps = Array.of_list (List.filter_map step calls); dtype = -1; red0_bytes = 0; red1_bytes = 0;
    red_scratch_bytes = 0; reductions = [||]; collectives_source = buffer_code C.BSrc; additions = [||];
    reduction = Dtype.op_code Dtype.Sum; avg_divisor = 1 }

(* One reduction or add_pending of [lower_sums]. *)
let sum_step (c : C.rcall) =
  let stride, size = c.rc_group in
  { op = sum_op_code c.rc_step; stride; size; shape = Array.of_list c.rc_shape;
    dim_a = (match c.rc_step with C.ReduceScatter (d, _) -> d | C.AllReduce _ | C.AddPending _ -> 0); dim_b = 0;
    input = sbuffer_code c.rc_in; output = sbuffer_code c.rc_out; recv_from = [||] }

(* A pending-sum plan's program ([lower_sums]): the collectives' part is
   [program_of_calls] of its calls, in the workspace after the reductions'
   arrays and scratch. *)
let program_of_sums ~mesh_sizes ~dtype ~op ~elem_bytes ~src_shape ~tgt_shape (pg : C.sum_program) =
  let collectives = program_of_calls ~mesh_sizes ~elem_bytes ~src_shape ~tgt_shape pg.sg_calls in
  let reduce_groups = List.filter_map (fun (c : C.rcall) -> match c.rc_step with C.AddPending _ -> None | _ -> Some c.rc_group) pg.sg_pre in
  { collectives with
    groups = Array.of_list (List.sort_uniq compare (Array.to_list collectives.groups @ reduce_groups));
    dtype = dtype_code dtype; red0_bytes = C.red0_bytes pg; red1_bytes = C.red1_bytes pg;
    red_scratch_bytes = C.red_scratch_bytes pg; reductions = Array.of_list (List.map sum_step pg.sg_pre);
    collectives_source = sbuffer_code (C.reductions_out pg.sg_pre);
    additions = Array.of_list (List.map sum_step pg.sg_post); reduction = Dtype.op_code op;
    avg_divisor = C.avg_divisor pg }

(* The program of a collectives plan's report whose lowered calls are [calls]. *)
let program_of_report (r : Report.t) calls =
  let base = F.core_mesh r.problem.env in
  program_of_calls
    ~mesh_sizes:(List.map (fun (a : F.axis_info) -> a.size) r.problem.env.axes)
    ~elem_bytes:r.problem.elem_bytes ~src_shape:(C.local_shape base r.problem.src)
    ~tgt_shape:(C.local_shape base r.problem.tgt) calls

let program (r : Report.t) = program_of_report r (Lazy.force r.calls)

(* A direct exchange as the runtime's Exchange::create takes it (emit.ml's
   exchange header writes the same meshes and layouts as constants). *)
type placed_layout = {
  axis_sizes : int array;
  ranks : int array;            (* the world rank of each device, row-major *)
  extents : int array;          (* global extents *)
  axes : int array array;       (* per dimension, the mesh axes sharding it, major to minor *)
}

type exchange = { source : placed_layout; target : placed_layout; x_elem_bytes : int }

(* The reducing exchange as the runtime's ReducingExchange::create takes
   it: the layouts, the pending axes of each side as axis numbers of its
   mesh, and the element type and operation it reduces with. *)
type reducing_exchange = {
  layouts : exchange;
  source_pending : int array;
  target_pending : int array;
  r_dtype : int;                (* dtype_code *)
  r_op : int;                   (* Dtype.op_code *)
}

(* [Staged (mid_bytes,
   workspace_bytes, first, second)]: a hybrid as the core's [lower_splan]
   lowers it, the intermediate in the workspace's first mid_bytes, then the
   workspace of whichever part runs; workspace_bytes is its
   [program_workspace_bytes], which redist::Staged checks. *)
type lowered =
  | By_collectives of program
  | By_exchange of exchange
  | By_reducing_exchange of reducing_exchange
  | Staged of int * int * lowered * lowered
  | In_place of in_place
  | By_regions of regions

(* The exchange in place (Inplace.v) as the runtime's InPlace::create takes
   it: the validated schedule, every world rank's buffer ([buf_size]) and
   the staging the schedule was made for, in elements. *)
and in_place = {
  buffer_elements : int array;  (* world rank w's buffer: max(source box, target box) *)
  staging_elements : int;
  schedule : C.schedule;
  ip_elem_bytes : int;
}

(* Composed cuts (Part 3) as the runtime's RegionExchange::create takes
   them: every world rank's lists (Cutplan.lists). *)
and regions = {
  lists : Cutplan.lists;
  rg_elem_bytes : int;
  rg_reduction : (int * int * int) option;  (* pending axes: (dtype_code, Dtype.op_code, avg divisor), combined by RegionExchange *)
}

let placed_layout (env : F.env) ranks (ty : C.ty) =
  { axis_sizes = Array.of_list (List.map (fun (a : F.axis_info) -> a.size) env.axes);
    ranks = Array.of_list ranks;
    extents = Array.of_list (List.map snd ty);
    axes = Array.of_list (List.map (fun (ids, _) -> Array.of_list ids) ty) }

let exchange (p : Problem.t) =
  { source = placed_layout p.env p.src_ranks p.src; target = placed_layout p.tgt_env p.tgt_ranks p.tgt;
    x_elem_bytes = p.elem_bytes }

(* A hybrid as data: the extracted [lower_splan] of the whole, read along
   the hybrid's parts (each part's report gives its problem), so that the
   intermediate's bytes and the calls are the lowering's own, as in the
   generated header. *)
let hybrid (h : Xreport.hybrid) =
  let rec walk (plan : Xreport.plan) (pg : C.program) =
    match (plan, pg) with
    | Xreport.Collectives r, C.Calls (_, calls) -> By_collectives (program_of_report r calls)
    | Xreport.Exchange x, C.OneExchange _ -> By_exchange (exchange x.problem)
    | Xreport.Hybrid h, (C.Staged (mid_bytes, first, second) as staged) ->
        Staged (mid_bytes, C.program_workspace_bytes staged, walk h.first first, walk h.second second)
    | _ -> failwith "lower_splan lowered a hybrid's part to another kind of program"
  in
  let p = h.whole in
  walk (Xreport.Hybrid h)
    (C.lower_splan p.elem_bytes (Problem.source_layout p) (Problem.target_layout p)
       (Xreport.splan (Xreport.Hybrid h)))

(* The in-place plan [inplace_plan] found for [p] with staging [staging] (elements). *)
let in_place (p : Problem.t) staging schedule =
  let s = Problem.source_layout p and t = Problem.target_layout p in
  { buffer_elements = Array.init (Problem.world p) (C.buf_size s t); staging_elements = staging; schedule;
    ip_elem_bytes = p.elem_bytes }

(* The box of the global array that world rank [rank] holds in [layout]:
   (offset, extent) per dimension, the model's [pl_box]; all zero extents
   for a rank outside the layout's mesh. *)
let box (layout : C.layout) ndim rank =
  match C.pl_box layout rank with
  | Some b -> Array.of_list b
  | None -> Array.make ndim (0, 0)

let regions (c : Problem.composed) =
  let p = c.meshes in
  { lists = Cutplan.lists c; rg_elem_bytes = p.elem_bytes;
    rg_reduction =
      (if Cutplan.reducing c then Some (dtype_code p.dtype, Dtype.op_code p.op, Option.value (Cutplan.make c).avg_divisor ~default:1) else None) }

let reducing_exchange (p : Problem.t) =
  { layouts = exchange p; source_pending = Array.of_list p.src_pending; target_pending = Array.of_list p.tgt_pending;
    r_dtype = dtype_code p.dtype; r_op = Dtype.op_code p.op }

(* What world rank [rank] adds up in the reducing exchange, from the
   extracted lowering [lower_sumx]: whether it is designated, the members of
   a source group, and its pieces (per dimension (offset, extent) of the
   cell, and the ranks that contribute to it in ascending member order). *)
let sum_receives (p : Problem.t) rank =
  let x = C.lower_sumx p.elem_bytes (Problem.source_layout p) p.src_pending
      (Problem.target_layout p) p.tgt_pending in
  Abi_data.Record
    ( "sum_receives",
      [| ("designated", Abi_data.Int (if x.sx_designated rank then 1 else 0));
         ("group_size", Abi_data.Int x.sx_group_size);
         ( "pieces",
           Abi_data.items
             (fun (pc : C.sx_piece) ->
               Abi_data.Record
                 ("piece", [| ("cell", Abi_data.box (Array.of_list pc.xp_cell)); ("senders", Abi_data.ints (Array.of_list pc.xp_senders)) |]))
             (Array.of_list (x.sx_pieces rank)) ) |] )

(* A pending-sum plan by the collectives lowered ([lower_sums]), and its program. *)
let lower_sums (p : Problem.t) pre rf plan post =
  C.lower_sums p.elem_bytes (Problem.fill p) (Problem.source_layout p) p.src_pending (Problem.target_layout p) pre
    rf plan post

let sums_program (p : Problem.t) pg =
  let base = F.core_mesh p.env in
  program_of_sums
    ~mesh_sizes:(List.map (fun (a : F.axis_info) -> a.size) p.env.axes)
    ~dtype:p.dtype ~op:p.op ~elem_bytes:p.elem_bytes ~src_shape:(C.local_shape base p.src) ~tgt_shape:(C.local_shape base p.tgt) pg

(* The lowering as the C ABI's C++ side reads it (Abi_data: by field name). *)
module D = Abi_data

let step_data (s : step) =
  D.Record
    ( "step",
      [| ("op", D.Int s.op); ("stride", D.Int s.stride); ("size", D.Int s.size); ("shape", D.ints s.shape);
         ("dim_a", D.Int s.dim_a); ("dim_b", D.Int s.dim_b); ("input", D.Int s.input); ("output", D.Int s.output);
         ("recv_from", D.ints s.recv_from) |] )

let program_data (p : program) =
  D.Record
    ( "program",
      [| ("mesh_sizes", D.ints p.mesh_sizes); ("elem_bytes", D.Int p.elem_bytes); ("src_shape", D.ints p.src_shape);
         ("tgt_shape", D.ints p.tgt_shape); ("ping_bytes", D.Int p.ping_bytes); ("pong_bytes", D.Int p.pong_bytes);
         ("scratch_bytes", D.Int p.scratch_bytes);
         ("groups", D.items (fun (stride, size) -> D.Record ("group", [| ("stride", D.Int stride); ("size", D.Int size) |])) p.groups);
         ("steps", D.items step_data p.steps); ("dtype", D.Int p.dtype); ("red0_bytes", D.Int p.red0_bytes);
         ("red1_bytes", D.Int p.red1_bytes); ("red_scratch_bytes", D.Int p.red_scratch_bytes);
         ("reductions", D.items step_data p.reductions); ("collectives_source", D.Int p.collectives_source);
         ("additions", D.items step_data p.additions); ("reduction", D.Int p.reduction);
         ("avg_divisor", D.Int p.avg_divisor) |] )

let placed_layout_data (l : placed_layout) =
  D.Record
    ( "placed_layout",
      [| ("axis_sizes", D.ints l.axis_sizes); ("ranks", D.ints l.ranks); ("extents", D.ints l.extents);
         ("axes", D.items D.ints l.axes) |] )

let exchange_data (x : exchange) =
  D.Record
    ( "exchange",
      [| ("source", placed_layout_data x.source); ("target", placed_layout_data x.target);
         ("elem_bytes", D.Int x.x_elem_bytes) |] )

let area_code = function C.Buf -> 0 | C.Stage -> 1

(* A schedule as the runtime's InPlaceSchedule (in_place.hpp): rounds of
   moves, each move its two places and its length in elements. *)
let schedule_data (sc : C.schedule) =
  let move (mv : C.move) =
    D.Record
      ( "move",
        [| ("from_rank", D.Int mv.mv_from.pl_rank); ("from_area", D.Int (area_code mv.mv_from.pl_area));
           ("from_offset", D.Int mv.mv_from.pl_off); ("to_rank", D.Int mv.mv_to.pl_rank);
           ("to_area", D.Int (area_code mv.mv_to.pl_area)); ("to_offset", D.Int mv.mv_to.pl_off);
           ("length", D.Int mv.mv_len) |] )
  in
  D.items (fun rd -> D.items move (Array.of_list rd)) (Array.of_list sc)

let lbox_data (b : C.lbox) = D.box (Array.of_list b)

let messages_data per_rank =
  D.items
    (fun msgs ->
      D.items (fun (peer, boxes) -> D.Record ("message", [| ("peer", D.Int peer); ("boxes", D.items lbox_data (Array.of_list boxes)) |]))
        (Array.of_list msgs))
    per_rank

let rec lowered_data = function
  | By_collectives p -> D.Record ("collectives", [| ("program", program_data p) |])
  | By_exchange x -> D.Record ("exchange", [| ("exchange", exchange_data x) |])
  | By_reducing_exchange r ->
      D.Record
        ( "reducing_exchange",
          [| ("exchange", exchange_data r.layouts); ("source_pending", D.ints r.source_pending);
             ("target_pending", D.ints r.target_pending); ("dtype", D.Int r.r_dtype); ("op", D.Int r.r_op) |] )
  | Staged (mid_bytes, workspace_bytes, first, second) ->
      D.Record
        ( "hybrid",
          [| ("mid_bytes", D.Int mid_bytes); ("workspace_bytes", D.Int workspace_bytes);
             ("first", lowered_data first); ("second", lowered_data second) |] )
  | In_place ip ->
      D.Record
        ( "in_place",
          [| ("buffer_elements", D.ints ip.buffer_elements); ("staging_elements", D.Int ip.staging_elements);
             ("elem_bytes", D.Int ip.ip_elem_bytes); ("rounds", schedule_data ip.schedule) |] )
  | By_regions { lists = rg; rg_elem_bytes; rg_reduction } ->
      D.Record
        ( "regions",
          [| ("source_shapes", D.items D.ints rg.source_shapes); ("target_shapes", D.items D.ints rg.target_shapes);
             ("sends", messages_data rg.sends); ("recvs", messages_data rg.recvs);
             ( "copies",
               D.items
                 (fun cs ->
                   D.items (fun (f, t) -> D.Record ("copy", [| ("from", lbox_data f); ("to", lbox_data t) |])) (Array.of_list cs))
                 rg.copies );
             ("elem_bytes", D.Int rg_elem_bytes);
             (* -1: the plain exchange *)
             ("dtype", D.Int (match rg_reduction with Some (d, _, _) -> d | None -> -1));
             ("op", D.Int (match rg_reduction with Some (_, o, _) -> o | None -> -1));
             ("avg_divisor", D.Int (match rg_reduction with Some (_, _, n) -> n | None -> 1)) |] )
