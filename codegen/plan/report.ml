(* What `plan` and `check` print about an accepted plan: every number comes
   from the extracted checker's report ([check]) and the core's
   [max_over_ranks] and [lower_bound_recv]; this module only adds up and
   formats. *)

module C = Redist_core
module F = Front

(* A plan the checker rejected: exit code 1. *)
exception Rejected of string

type step = {
  coll : C.collective;
  before : C.ty;              (* type before the step *)
  after : C.ty;
  local_elems : int;
  recv_max : int;             (* elements received by the busiest rank in this step *)
}

type t = {
  problem : Problem.t;
  env : F.env;                (* the refined mesh *)
  refinement : C.split list;  (* the user's mesh to [env] *)
  steps : step list;
  peak : int;
  src_elems : int;
  tgt_elems : int;
  global_elems : int;
  recv_busiest : int;         (* max over ranks of the rank's total over the plan *)
  recv_total : int;           (* summed over ranks and steps *)
  lb_max : int;
  lb_total : int;
  launches : int;             (* collectives that communicate *)
  slices : int;               (* dyn_slice steps: local, no communication *)
  (* Lowering lists every rank per permute: only for the commands that
     emit or run code, not for checking a long plan file. *)
  calls : C.call list Lazy.t; (* the plan lowered to runtime calls (the core's [lower]) *)
  live_bytes : int Lazy.t;    (* the most bytes alive on a rank during a call (lower_live_bytes) *)
}

let sum_over_ranks n f =
  let acc = ref 0 in
  for r = 0 to n - 1 do acc := Bounds.add !acc (f r) done;
  !acc

let of_check (p : Problem.t) env (rf : C.split list) plan =
  let m = F.core_mesh env in
  let src = C.refine_ty rf p.src and tgt = C.refine_ty rf p.tgt in
  match C.check m src tgt plan with
  | C.Error e -> C.Error e
  | C.OK rep ->
      let n = C.mesh_size m in
      let base = F.core_mesh p.env in
      let _, rev_steps =
        List.fold_left
          (fun (before, acc) (s : C.step_report) ->
            ( s.sr_type,
              { coll = s.sr_collective; before; after = s.sr_type; local_elems = s.sr_local_size;
                recv_max = C.max_over_ranks m s.sr_recv }
              :: acc ))
          (src, []) rep.rp_steps
      in
      let steps = List.rev rev_steps in
      let rank_total r =
        List.fold_left (fun acc (s : C.step_report) -> Bounds.add acc (s.sr_recv r)) 0 rep.rp_steps
      in
      let lb = C.lower_bound_recv base p.src p.tgt in
      let slices = List.length (List.filter (function C.DynSlice _ -> true | _ -> false) plan) in
      C.OK
        { problem = p; env; refinement = rf; steps; peak = rep.rp_peak;
          src_elems = C.local_size base p.src; tgt_elems = C.local_size base p.tgt;
          global_elems = List.fold_left ( * ) 1 (C.global_shape p.src);
          recv_busiest = C.max_over_ranks m rank_total;
          recv_total = sum_over_ranks n rank_total;
          lb_max = C.max_over_ranks base lb; lb_total = sum_over_ranks n lb;
          launches = List.length plan - slices; slices;
          calls = lazy (C.lower m p.elem_bytes src plan);
          live_bytes = lazy (C.live_bytes m p.elem_bytes src tgt plan) }

let bytes (r : t) elems = Bounds.mul_decimal elems r.problem.elem_bytes

let plural n word = if n = 1 then Printf.sprintf "%d %s" n word else Printf.sprintf "%d %ss" n word

(* The plan as a plan file: refine lines, one collective per line, and the
   numbers as comments, so that `redist check --plan -` reads it back. *)
let text ~title ~guarantees (r : t) =
  let p = r.problem in
  let b = Buffer.create 1024 in
  let line fmt = Printf.ksprintf (fun s -> Buffer.add_string b s; Buffer.add_char b '\n') fmt in
  line "# %s: mesh %s, %s -> %s, %s (%d bytes per element)" title (F.show_mesh p.env)
    (F.show_ty p.env p.src) (F.show_ty p.env p.tgt) p.dtype.name p.elem_bytes;
  List.iter (line "%s") (F.refine_lines ~base:p.env r.env);
  if r.steps = [] then line "# (no steps: the source type is the target type)";
  let colls = List.map (fun s -> F.show_collective r.env s.coll) r.steps in
  let types = List.map (fun s -> F.show_ty r.env s.after) r.steps in
  let width l = List.fold_left (fun acc s -> max acc (String.length s)) 0 l in
  let wc = width colls and wt = width types in
  List.iter2
    (fun s (c, t) ->
      line "%-*s  # -> %-*s  local %d  busiest rank recv %d (%s B)" wc c wt t s.local_elems s.recv_max
        (bytes r s.recv_max))
    r.steps (List.combine colls types);
  line "# peak local size: %s (%s B); lower bound max(|src|, |tgt|) = max(%d, %d) = %d; gather-everything plan: %d"
    (plural r.peak "element") (bytes r r.peak) r.src_elems r.tgt_elems (max r.src_elems r.tgt_elems) r.global_elems;
  line "# busiest rank receives: %s (%s B); lower bound %d (target elements not already held, max over ranks)"
    (plural r.recv_busiest "element") (bytes r r.recv_busiest) r.lb_max;
  line "# total received: %s (%s B); lower bound %d (summed over ranks)" (plural r.recv_total "element")
    (bytes r r.recv_total) r.lb_total;
  line "# launches: %s (+ %s, local)" (plural r.launches "collective") (plural r.slices "dyn_slice");
  line "# proven in Coq:";
  List.iter (fun (name, what) -> line "#   %s: %s" name what) guarantees;
  Buffer.contents b

(* The groups the gathers and all-to-alls of lowered calls run over, each
   once: a mesh prepares their communicators when it is created. *)
let communicating_groups (calls : C.call list) =
  List.sort_uniq compare
    (List.filter_map
       (fun (c : C.call) -> match c.cl_op with Some (C.AllGather _ | C.AllToAll _) -> c.cl_group | _ -> None)
       calls)
