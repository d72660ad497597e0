(* Cases of the step-by-step differential test (tests/diff/run.sh).

     gen_diff.exe SEED STEPS PLANS EXCHANGES SUM_STEPS SUM_PLANS SUM_EXCHANGES
                  HYBRIDS PERMUTED SUM_PERMUTED WIDE OUTDIR

   Draws STEPS random single collectives (each of dyn_slice, all_gather,
   all_to_all and all_permute in turn, from a random well-formed type),
   PLANS random problems planned by the verified planner and EXCHANGES
   random direct exchanges (uneven, cross-mesh and even in turn), element
   sizes 1, 2, 4, 8 and 16 in turn.  Collectives are lowered with the
   extracted [lower] ([Lowering.program_of_calls]: the data the C ABI's
   plan interpreter runs), exchanges with [lower_exchange].  The reference
   is the extracted semantics: [interp_rank], or the exchange's
   [message_wire], over labelled source buffers says where every byte of
   every rank's destination comes from, so each case carries random source
   bytes and the expected destination bytes of every rank.

   Pending sums: SUM_STEPS random single reduce_scatter, all_reduce and
   add_pending steps (in turn, over random groups), SUM_PLANS random
   pending-sum problems planned by the verified [plan_sums] by the
   collectives (Sum_problem.draw), lowered with the extracted [lower_sums]
   ([Lowering.program_of_sums]), and SUM_EXCHANGES random reducing
   exchanges (uneven; across two placed meshes, Sum_problem.draw_placed, and
   on one mesh, draw_uneven, in turn),
   run by the runtime's ReducingExchange (each rank's workspace within the
   stated [sumplan_workspace_bytes], its source, target and workspace within
   [sumplan_live_bytes]); integer element types of every
   size (1, 2, 4, 8 bytes), f32 and f64, and c128 (16 bytes, small
   integral parts, so its sums are exact), the operation drawn in turn
   (sum, prod, max, min; c128 sums only; the 64-rank cases sum).  The
   reference is the extracted [sexec] over the integers modulo 2^64 (pairs
   of them for c128), or over f32 or f64 arithmetic rounded as the
   runtime's ([float_monoid]: bitwise, no zeros or NaNs drawn), with the
   operation on the element type ([monoid]) and its fill ([Problem.fill])
   on random source values; OUTDIR/ops.txt counts these cases per operation
   on integers and on floats;
   a reducing exchange also carries each rank's messages and staging in
   the extracted [lower_sumx], and the header's workspace and live bytes.

   HYBRIDS random hybrids (the four kinds of [hybrid_kinds] in turn, each
   accepted by [xcheck]), run by the driver through the C ABI from their
   plan files, the reference the extracted [xexec] of the plan; PERMUTED
   random direct exchanges and SUM_PERMUTED random reducing exchanges at
   permuted rank lists (on one mesh, or between two meshes, in turn); WIDE
   cases on 64 ranks ([wide_kinds] in turn: a single step, a plan, a direct
   exchange, a hybrid, a pending-sum plan, a reducing exchange; the
   exchanges at permuted rank lists), with small arrays.  Writes
   OUTDIR/casesN.txt, the cases on N ranks in the format
   tests/diff/diff_main.cpp reads, and OUTDIR/sizes.txt, one line "RANKS
   COUNT" per world size. *)

module C = Redist_core

let spec =
  { Random_problem.max_devices = 12; axis_sizes = [ 1; 2; 3; 4; 5; 6 ]; max_axes = 4; max_rank = 4;
    multipliers = [ 1; 1; 2; 3 ]; max_global_elems = 512; dtypes = [ "f32" ] }

let elem_sizes = [| 1; 2; 4; 8; 16 |]

(* A dtype of each element size, for planned problems. *)
let dtype_of_size = function 1 -> "u8" | 2 -> "u16" | 4 -> "f32" | 8 -> "f64" | _ -> "c128"

(* Every collective of [kind] (0 dyn_slice, 1 all_gather, 2 all_to_all, 3
   all_permute) that type-checks from [t]; a permute goes to [t] with two
   axes of one size exchanged, or to [t] itself. *)
let candidates (m : C.mesh) (t : C.ty) kind =
  let dims = List.init (List.length t) Fun.id in
  let axes = List.map fst m in
  let swap a b (t : C.ty) =
    List.map (fun (ids, n) -> (List.map (fun x -> if x = a then b else if x = b then a else x) ids, n)) t
  in
  let all =
    match kind with
    | 0 -> List.concat_map (fun d -> List.map (fun x -> C.DynSlice (d, x)) axes) dims
    | 1 -> List.map (fun d -> C.AllGather d) dims
    | 2 -> List.concat_map (fun s -> List.map (fun u -> C.AllToAll (s, u)) dims) dims
    | _ ->
        C.AllPermute t
        :: List.concat_map
             (fun (a, sa) -> List.filter_map (fun (b, sb) -> if a < b && sa = sb then Some (C.AllPermute (swap a b t)) else None) m)
             m
  in
  List.filter (fun k -> match C.step_type m t k with C.OK _ -> true | C.Error _ -> false) all

let hex bytes = "x" ^ String.concat "" (List.map (Printf.sprintf "%02x") (Array.to_list bytes))

(* Row-major local indices of [shape]. *)
let indices shape =
  List.fold_right (fun n acc -> List.concat_map (fun i -> List.map (fun rest -> i :: rest) acc) (List.init n Fun.id)) shape [ [] ]

let linear shape l = List.fold_left2 (fun acc n i -> (acc * n) + i) 0 shape l

(* Per rank: its random source bytes and the destination bytes that
   [source_of] (rank, local index -> source rank and row-major position)
   gives. *)
let write_bytes oc st ~id ~ranks ~elem ~src_elems ~tgt_shape source_of =
  let src = Array.init ranks (fun r -> Array.init (src_elems r * elem) (fun _ -> Random.State.int st 256)) in
  for r = 0 to ranks - 1 do
    let expected =
      List.concat_map
        (fun l ->
          let r', k = source_of r l in
          if r' < 0 || r' >= ranks || k < 0 || k >= src_elems r' then
            failwith (Printf.sprintf "case %d: the reference reads outside the sources" id);
          List.init elem (fun b -> src.(r').((k * elem) + b)))
        (indices (tgt_shape r))
    in
    Printf.fprintf oc "%s\n%s\n" (hex src.(r)) (hex (Array.of_list expected))
  done

let ints l = String.concat " " (List.map string_of_int l)
let arr a = ints (Array.to_list a)

(* A program as diff_main.cpp's read_program reads it. *)
let write_program oc ~id ~desc (prog : Lowering.program) =
  Printf.fprintf oc "case %d %s\n%d %s\n%d\n%d %s\n%d %s\n%d %d %d\n" id desc (Array.length prog.mesh_sizes)
    (arr prog.mesh_sizes) prog.elem_bytes (Array.length prog.src_shape) (arr prog.src_shape) (Array.length prog.tgt_shape)
    (arr prog.tgt_shape) prog.ping_bytes prog.pong_bytes prog.scratch_bytes;
  Printf.fprintf oc "%d %s\n" (Array.length prog.groups)
    (ints (List.concat_map (fun (s, z) -> [ s; z ]) (Array.to_list prog.groups)));
  let steps a =
    Printf.fprintf oc "%d\n" (Array.length a);
    Array.iter
      (fun (s : Lowering.step) ->
        Printf.fprintf oc "%d %d %d %d %s %d %d %d %d %d %s\n" s.op s.stride s.size (Array.length s.shape) (arr s.shape)
          s.dim_a s.dim_b s.input s.output (Array.length s.recv_from) (arr s.recv_from))
      a
  in
  steps prog.steps;
  Printf.fprintf oc "%d %d %d %d %d %d\n" prog.dtype prog.red0_bytes prog.red1_bytes prog.red_scratch_bytes
    prog.collectives_source prog.reduction;
  steps prog.reductions;
  steps prog.additions

(* One case: the program, then per rank its random source bytes and the
   destination bytes the extracted semantics gives. *)
let write_case oc st ~id ~desc ~mesh_sizes ~elem ~src_shape ~tgt_shape calls =
  let devices = List.fold_left ( * ) 1 mesh_sizes in
  let prog = Lowering.program_of_calls ~mesh_sizes ~elem_bytes:elem ~src_shape ~tgt_shape calls in
  write_program oc ~id ~desc prog;
  let src_elems = List.fold_left ( * ) 1 src_shape in
  (* Element l of rank r's source is labelled (r, its row-major position). *)
  let labels : (int * int) C.state = fun r l -> (r, linear src_shape l) in
  let unset : (int * int) C.state = fun _ _ -> (-1, -1) in
  let bs = C.interp_rank calls (fun b -> match b with C.BSrc -> labels | _ -> unset) in
  write_bytes oc st ~id ~ranks:devices ~elem ~src_elems:(fun _ -> src_elems) ~tgt_shape:(fun _ -> tgt_shape)
    (bs C.BDst)

let shape_at (l : C.layout) r = match C.pl_box l r with Some b -> C.box_shape b | None -> []
let elems_at (l : C.layout) r = match C.pl_box l r with Some b -> C.box_size b | None -> 0

(* Per world rank: random bytes on its box of [s], and on its box of [t]
   (none outside [t]'s mesh) the bytes that [source_of] gives: for a rank
   and a local index of its target box, the rank and the local index of
   its source box they come from. *)
let write_box_bytes oc st ~id ~world ~elem s t source_of =
  write_bytes oc st ~id ~ranks:world ~elem ~src_elems:(elems_at s)
    ~tgt_shape:(fun r -> if C.pl_box t r = None then [ 0 ] else shape_at t r)
    (fun r l -> let r', l' = source_of r l in (r', linear (shape_at s r') l'))

let write_placed oc (pl : Lowering.placed_layout) =
  Printf.fprintf oc "%d %s\n%d %s\n%d %s\n%s\n" (Array.length pl.axis_sizes) (arr pl.axis_sizes)
    (Array.length pl.ranks) (arr pl.ranks) (Array.length pl.extents) (arr pl.extents)
    (String.concat " " (List.map (fun a -> Printf.sprintf "%d %s" (Array.length a) (arr a)) (Array.to_list pl.axes)))

(* A direct exchange: the stated live bytes ([splan_live_bytes]), both
   placed layouts as Lowering.exchange gives them to the runtime's
   Exchange, then per world rank the bytes, from
   [message_wire] over the extracted [lower_exchange]. *)
let write_exchange oc st ~id ~desc (p : Problem.t) =
  let s = Problem.source_layout p and t = Problem.target_layout p in
  let x = Lowering.exchange p in
  let placed = write_placed oc in
  let world = Problem.world p in
  Printf.fprintf oc "xcase %d %s\n%d %d %d\n" id desc world x.x_elem_bytes
    (C.splan_live_bytes x.x_elem_bytes s t C.ByExchange);
  placed x.source;
  placed x.target;
  write_box_bytes oc st ~id ~world ~elem:x.x_elem_bytes s t (C.message_wire (C.lower_exchange s t))

(* A hybrid [sp] of [p], which the driver runs through the C ABI from its
   plan file ([redist_plan_check]): the workspace and live bytes the C ABI
   must state ([program_workspace_bytes] of the extracted [lower_splan],
   [splan_live_bytes]), the problem's meshes, types and dtype and the plan
   file's lines ([Costreport.plan_file_lines]), then per world rank the
   bytes, from the extracted [xexec] of the plan over labelled sources. *)
let write_hybrid oc st ~id ~desc (p : Problem.t) sp =
  let s = Problem.source_layout p and t = Problem.target_layout p in
  let lines = Costreport.plan_file_lines p sp in
  Printf.fprintf oc "hcase %d %s\n%d %d %d %d %d\n" id desc (Problem.world p) p.elem_bytes
    (C.program_workspace_bytes (C.lower_splan p.elem_bytes s t sp)) (C.splan_live_bytes p.elem_bytes s t sp)
    (List.length lines);
  List.iter (Printf.fprintf oc "%s\n")
    ([ Problem.show_placed p.env p.src_placement;
       (if p.one_mesh then "-" else Problem.show_placed p.tgt_env p.tgt_placement);
       Front.show_ty p.env p.src; Front.show_ty p.tgt_env p.tgt; p.dtype.name ]
    @ lines);
  let labels : (int * int list) C.state = fun r l -> (r, l) in
  write_box_bytes oc st ~id ~world:(Problem.world p) ~elem:p.elem_bytes s t (C.xexec s t sp labels)


(* ---- pending sums ---- *)

(* The dtypes of the sum cases, in turn: every element size, integer and
   floating (f32 and f64 twice each, as their rounding depends on the order). *)
let sum_dtypes = [| "u8"; "f32"; "i16"; "f64"; "i32"; "f32"; "u64"; "c128"; "f64"; "i8"; "u16"; "u32"; "i64" |]

(* The operations drawn, in turn with the dtypes (4 and 13 are coprime:
   every pair comes); c128 only sums (its values stay exact integers). *)
let sum_ops = [| Dtype.Sum; Dtype.Prod; Dtype.Max; Dtype.Min |]
let sum_op i dtype = if dtype = "c128" then Dtype.Sum else sum_ops.(i mod Array.length sum_ops)

(* A type's text with operation [op] where Sum_problem writes sum{..}. *)
let with_op op text =
  let key = "sum{" in
  let n = String.length key in
  let rec at i =
    if i + n > String.length text then text
    else if String.sub text i n = key then
      String.sub text 0 i ^ Dtype.op_name op ^ "{" ^ String.sub text (i + n) (String.length text - i - n)
    else at (i + 1)
  in
  at 0

let is_float dtype = dtype = "f32" || dtype = "f64"

(* A sum case's kind for the closing line: its operation, with "float-"
   before it on f32 and f64. *)
let reduction_kind op ~floating = (if floating then "float-" else "") ^ Dtype.op_name op

(* The sum cases written per kind, for the closing line. *)
let op_counts : (string, int) Hashtbl.t = Hashtbl.create 8
let count_op (p : Problem.t) =
  let kind = reduction_kind p.op ~floating:(is_float p.dtype.name) in
  Hashtbl.replace op_counts kind (1 + Option.value (Hashtbl.find_opt op_counts kind) ~default:0);
  ", reduction " ^ kind

(* Values: the integers modulo 2^64, pairs of them (real, imaginary) for
   c128, whose parts stay small integers so that f64 adds them exactly;
   for f32 and f64 the first is the bits of the value as an OCaml float. *)
type value = int64 * int64

let pairs : C.cmonoid =
  { zero = Obj.repr ((0L, 0L) : value);
    add0 = (fun a b -> let (a1, a2) : value = Obj.obj a and (b1, b2) : value = Obj.obj b in Obj.repr (Int64.add a1 b1, Int64.add a2 b2)) }

(* f32 and f64 with [p]'s operation as the runtime computes it: each
   addition or product rounded to the type (for f32, the double result
   rounded to single: double rounding is exact for one + or * of singles),
   max and min keeping the later value when it is larger (smaller), with
   identities 0, 1, -inf and +inf.  [sexec] folds from the identity in
   ascending member order and the runtime from the first member in the same
   order: the same bits, as no value drawn is a zero or a NaN (0 + x = x and
   1 * x = x exactly, -inf < x < +inf). *)
let float_monoid (p : Problem.t) : C.cmonoid =
  let to_type x = if p.dtype.name = "f32" then Int32.float_of_bits (Int32.bits_of_float x) else x in
  let on_floats zero f =
    { C.zero = Obj.repr ((Int64.bits_of_float zero, 0L) : value);
      add0 = (fun a b ->
        let (a, _) : value = Obj.obj a and (b, _) : value = Obj.obj b in
        Obj.repr ((Int64.bits_of_float (f (Int64.float_of_bits a) (Int64.float_of_bits b)), 0L) : value)) }
  in
  match p.op with
  | Dtype.Sum -> on_floats 0. (fun a b -> to_type (a +. b))
  | Dtype.Prod -> on_floats 1. (fun a b -> to_type (a *. b))
  | Dtype.Max -> on_floats Float.neg_infinity (fun a b -> if b > a then b else a)
  | Dtype.Min -> on_floats Float.infinity (fun a b -> if b < a then b else a)
  | Dtype.Avg -> invalid_arg "gen_diff: avg is not drawn"

(* The integers modulo 2^64 with [p]'s operation on its element type: sum
   and prod wrap (the low bytes are the type's), max and min compare the
   values as the type reads its low bytes (sign- or zero-extended), with
   identities the lowest and the highest value; floats as [float_monoid]. *)
let monoid (p : Problem.t) : C.cmonoid =
  let bits = 8 * p.elem_bytes and signed = p.dtype.name.[0] = 'i' in
  let norm v =
    if bits >= 64 then v
    else if signed then Int64.shift_right (Int64.shift_left v (64 - bits)) (64 - bits)
    else Int64.logand v (Int64.pred (Int64.shift_left 1L bits))
  in
  let compare = if signed then Int64.compare else Int64.unsigned_compare in
  let lowest = if signed then norm (Int64.shift_left 1L (bits - 1)) else 0L in
  let on_ints zero f =
    { C.zero = Obj.repr ((zero, 0L) : value);
      add0 = (fun a b -> let (a, _) : value = Obj.obj a and (b, _) : value = Obj.obj b in Obj.repr ((f a b, 0L) : value)) }
  in
  let pick keep a b = let a = norm a and b = norm b in if keep (compare a b) then a else b in
  if is_float p.dtype.name then float_monoid p
  else
    match p.op with
    | Dtype.Sum -> pairs
    | Dtype.Prod -> on_ints 1L Int64.mul
    | Dtype.Max -> on_ints lowest (pick (fun c -> c >= 0))
    | Dtype.Min -> on_ints (norm (Int64.pred lowest)) (pick (fun c -> c <= 0))
    | Dtype.Avg -> invalid_arg "gen_diff: avg has no integer values"

(* 64 random bits from three draws of 30. *)
let random_bits st =
  let bits () = Int64.of_int (Random.State.bits st) in
  Int64.logxor (Int64.shift_left (bits ()) 34) (Int64.logxor (Int64.shift_left (bits ()) 17) (bits ()))

(* A random value of [p]'s element type.  Floats: a random sign and
   mantissa (all of the type's bits, so sums round), never zero or NaN,
   of magnitude 2^-4 to 2^4, or 1/2 to 2 for prod (a product over a group
   of at most 64 members stays finite and normal in f32). *)
let random_value st (p : Problem.t) : value =
  let dtype = p.dtype.name in
  if dtype = "c128" then (Int64.of_int (Random.State.int st 1024), Int64.of_int (Random.State.int st 1024))
  else if is_float dtype then
    let mantissa = 1. +. Int64.to_float (Int64.shift_right_logical (random_bits st) 12) /. 0x1p52 in
    let exponent = if p.op = Dtype.Prod then Random.State.int st 2 - 1 else Random.State.int st 9 - 4 in
    let x = Float.ldexp (if Random.State.bool st then mantissa else -.mantissa) exponent in
    ((Int64.bits_of_float (if dtype = "f32" then Int32.float_of_bits (Int32.bits_of_float x) else x)), 0L)
  else (random_bits st, 0L)

(* Little-endian bytes of a value as the runtime holds it. *)
let value_bytes dtype elem ((v, w) : value) =
  let le x = List.init 8 (fun b -> Int64.to_int (Int64.logand (Int64.shift_right_logical x (8 * b)) 0xffL)) in
  if dtype = "c128" then le (Int64.bits_of_float (Int64.to_float v)) @ le (Int64.bits_of_float (Int64.to_float w))
  else if dtype = "f32" then List.filteri (fun i _ -> i < 4) (le (Int64.of_int32 (Int32.bits_of_float (Int64.float_of_bits v))))
  else List.filteri (fun i _ -> i < elem) (le v)

(* Per world rank: random source values on its source box and the values
   [sexec] gives on its target box (nothing outside the meshes). *)
let write_sum_bytes oc st (p : Problem.t) plan =
  let s = Problem.source_layout p and t = Problem.target_layout p in
  let world = Problem.world p in
  let src = Array.init world (fun r -> Array.init (elems_at s r) (fun _ -> random_value st p)) in
  let state : C.carrier C.state =
   fun r l -> if r < world && elems_at s r > 0 then Obj.repr src.(r).(linear (shape_at s r) l) else (monoid p).zero
  in
  let result = C.sexec (monoid p) (Problem.fill p) s p.src_pending t p.tgt_pending plan state in
  let hex_values vs = hex (Array.of_list (List.concat_map (value_bytes p.dtype.name p.elem_bytes) vs)) in
  for r = 0 to world - 1 do
    let expected = if elems_at t r = 0 then [] else List.map (fun l -> (Obj.obj (result r l) : value)) (indices (shape_at t r)) in
    Printf.fprintf oc "%s\n%s\n" (hex_values (Array.to_list src.(r))) (hex_values expected)
  done

(* A plan by the collectives: the program of [lower_sums]. *)
let write_sum_program oc st ~id ~desc (p : Problem.t) plan =
  let pre, rf, steps, post = match plan with C.SumByCollectives (a, b, c, d) -> (a, b, c, d) | C.SumByExchange -> assert false in
  write_program oc ~id ~desc:(desc ^ count_op p) (Lowering.sums_program p (Lowering.lower_sums p pre rf steps post));
  write_sum_bytes oc st p plan

(* A reducing exchange: both placed layouts and pending axes as the
   runtime's ReducingExchange takes them (Lowering.reducing_exchange), the
   header's workspace and live bytes (Sumplan's, from the extracted
   [lower_sumx]), the bytes, then per world rank its lowering: the
   messages it receives (per piece, each sender other than itself, with
   the cell's elements, in posting order: [sx_pieces]) and sends
   ([sx_sends]), and its staging ([sx_staging]). *)
let write_sum_exchange oc st ~id ~desc (p : Problem.t) =
  let x = Lowering.reducing_exchange p in
  let r = Sumplan.checked p C.SumByExchange in
  Printf.fprintf oc "scase %d %s%s\n%d %d %d %d %d %d\n" id desc (count_op p) (Problem.world p) p.elem_bytes x.r_dtype x.r_op
    r.workspace_bytes r.live_bytes;
  write_placed oc x.layouts.source;
  Printf.fprintf oc "%d %s\n" (Array.length x.source_pending) (arr x.source_pending);
  write_placed oc x.layouts.target;
  Printf.fprintf oc "%d %s\n" (Array.length x.target_pending) (arr x.target_pending);
  write_sum_bytes oc st p C.SumByExchange;
  let lowered =
    C.lower_sumx p.elem_bytes (Problem.source_layout p) p.src_pending (Problem.target_layout p) p.tgt_pending
  in
  let peers l = Printf.sprintf "%d %s" (List.length l) (String.concat " " (List.concat_map (fun (w, n) -> [ string_of_int w; string_of_int n ]) l)) in
  for w = 0 to Problem.world p - 1 do
    let receives =
      List.concat_map
        (fun (piece : C.sx_piece) ->
          List.filter_map (fun s -> if s = w then None else Some (s, C.box_size piece.xp_cell)) piece.xp_senders)
        (lowered.sx_pieces w)
    in
    let sends = List.map (fun (r, cell) -> (r, C.box_size cell)) (lowered.sx_sends w) in
    Printf.fprintf oc "%s\n%s\n%d\n" (peers receives) (peers sends) (lowered.sx_staging w)
  done

(* Every reduce_scatter (kind 0), all_reduce (1) or add_pending (2) that
   type-checks from [pt]. *)
let sum_candidates (m : C.mesh) ((t, ps) as pt : C.pty) kind =
  let dims = List.init (List.length t) Fun.id in
  let all =
    match kind with
    | 0 -> List.concat_map (fun a -> List.map (fun d -> C.ReduceScatter (d, a)) dims) ps
    | 1 -> List.map (fun a -> C.AllReduce a) ps
    | _ -> List.map (fun (a, _) -> C.AddPending a) m
  in
  List.filter (fun k -> match C.sum_step_type m pt k with C.OK _ -> true | C.Error _ -> false) all

(* A random single step from a random type with random pending axes (those
   the type leaves free), as a problem of one step. *)
let rec draw_sum_step st made =
  let q = Random_problem.draw spec st in
  let p0 = Problem.make ~mesh:q.mesh ~from:q.src ~to_:q.src ~dtype:(Some "u8") in
  let m = Front.core_mesh p0.env in
  let free = List.filter (fun (a, _) -> not (List.exists (fun (ids, _) -> List.mem a ids) p0.src)) m in
  let ps = List.filter (fun _ -> Random.State.bool st) (List.map fst free) in
  let kind = made mod 3 in
  match sum_candidates m (p0.src, ps) kind with
  | [] -> draw_sum_step st made
  | ks -> (
      let k = List.nth ks (Random.State.int st (List.length ks)) in
      match C.sum_step_type m (p0.src, ps) k with
      | C.Error _ -> assert false
      | C.OK pt' ->
          let dtype = sum_dtypes.(made mod Array.length sum_dtypes) in
          let op = sum_op made dtype in
          let p =
            Problem.make ~mesh:q.mesh ~from:(Sumplan.show_pty op p0.env (p0.src, ps)) ~to_:(Sumplan.show_pty op p0.env pt')
              ~dtype:(Some dtype)
          in
          let plan = match k with C.AddPending _ -> C.SumByCollectives ([], [], [], [ k ]) | _ -> C.SumByCollectives ([ k ], [], [], []) in
          let desc = Printf.sprintf "sum step %s on %s from %s, %s" (Sumplan.show_sum_step p.env k) (Front.show_mesh p.env)
              (Sumplan.show_pty p.op p.env (p.src, p.src_pending)) dtype in
          (p, plan, desc))

(* ---- each kind drawn and written; hybrids, permuted rank lists, 64 ranks ---- *)

(* [n] distinct world ranks below [world] in random order, never ranks 0
   to n - 1 in order ([world] > 1). *)
let rec permutation st ~world n =
  let ranks = List.filteri (fun i _ -> i < n) (Placed_problem.shuffle st (List.init world Fun.id)) in
  if ranks = List.init n Fun.id then permutation st ~world n else ranks

(* A mesh of these axes at a random permuted rank list of the world. *)
let permuted_mesh st ~world axes =
  Printf.sprintf "%s @ [%s]" (Placed_problem.mesh_text axes)
    (String.concat ", " (List.map string_of_int (permutation st ~world (Placed_problem.devices axes))))

(* A mesh of 64 devices: its axes, named [prefix]0, [prefix]1, ... *)
let mesh64 st prefix =
  let shapes = [ [ 64 ]; [ 8; 8 ]; [ 4; 16 ]; [ 4; 4; 4 ]; [ 2; 4; 8 ]; [ 2; 2; 2; 2; 2; 2 ] ] in
  List.mapi (fun k size -> (Printf.sprintf "%s%d" prefix k, size)) (Placed_problem.pick st shapes)

(* Well-formed problems on 64 devices, small arrays (at most 512 elements). *)
let spec64 = { spec with max_devices = 64; axis_sizes = [ 1; 2; 4; 8 ]; max_axes = 3; max_rank = 2; multipliers = [ 1; 2 ] }

(* A random even problem of [spec] (one mesh at world rank 0) with [dtype]
   that [accept]s its number of devices. *)
let rec draw_even ?(accept = fun _ -> true) spec st dtype =
  let q = Random_problem.draw spec st in
  let p = Problem.make ~mesh:q.mesh ~from:q.src ~to_:q.tgt ~dtype:(Some dtype) in
  if accept (Problem.world p) then (q, p) else draw_even ~accept spec st dtype

let on_64 devices = devices = 64

let mesh_sizes (p : Problem.t) = List.map (fun (a : Front.axis_info) -> a.size) p.env.axes

(* A random single collective of kind [kind] (see [candidates]) from [p]'s
   source type, with [elem]-byte elements, as case [id]; false when the
   type allows none of that kind. *)
let write_step out st ~id ~label ~kind ~elem (p : Problem.t) =
  let m = Front.core_mesh p.env in
  match candidates m p.src kind with
  | [] -> false
  | ks ->
      let k = List.nth ks (Random.State.int st (List.length ks)) in
      let t' = match C.step_type m p.src k with C.OK t' -> t' | C.Error _ -> assert false in
      let desc = Printf.sprintf "%s %s on %s from %s, %d-byte elements" label (Front.show_collective p.env k)
          (Front.show_mesh p.env) (Front.show_ty p.env p.src) elem in
      write_case (out (C.mesh_size m)) st ~id ~desc ~mesh_sizes:(mesh_sizes p) ~elem
        ~src_shape:(C.local_shape m p.src) ~tgt_shape:(C.local_shape m t') (C.lower m elem p.src [ k ]);
      true

(* The verified planner's plan of [p] as case [id]. *)
let write_plan out st ~id ~label (p : Problem.t) =
  let r, _ = Planning.plan p in
  let base = Front.core_mesh p.env in
  let desc = Printf.sprintf "%s of %d steps for %s %s -> %s %s" label (List.length r.steps) (Front.show_mesh p.env)
      (Front.show_ty p.env p.src) (Front.show_ty p.env p.tgt) p.dtype.name in
  write_case (out (C.mesh_size base)) st ~id ~desc ~mesh_sizes:(mesh_sizes p) ~elem:p.elem_bytes
    ~src_shape:(C.local_shape base p.src) ~tgt_shape:(C.local_shape base p.tgt) (Lazy.force r.calls)

(* The pending-sum plan of [p] as case [id] when [plan_sums] plans it by the
   collectives; false otherwise. *)
let write_sum_plan out st ~id ~label (p : Problem.t) =
  match Sumplan.choose p with
  | { plan = C.SumByCollectives _ as plan; steps; _ } ->
      let desc = Printf.sprintf "%s of %d steps for %s %s -> %s %s" label (List.length steps) (Problem.show_meshes p)
          (Sumplan.show_pty p.op p.env (p.src, p.src_pending)) (Sumplan.show_pty p.op p.tgt_env (p.tgt, p.tgt_pending)) p.dtype.name in
      write_sum_program (out (Problem.world p)) st ~id ~desc p plan;
      true
  | _ -> false

(* The four kinds of hybrids drawn, in turn: the planner's candidates
   ([hybrid_candidates]) the exchange then an all_gather, on one mesh or
   (2) from a source mesh of another shape at a permuted rank list, a
   collective then the exchange, and (3) three parts: a collective, then
   the exchange then an all_gather (a hybrid whose second part is a
   hybrid). *)
let hybrid_kinds =
  [| "exchange then all_gather"; "collective then exchange"; "exchange from a permuted mesh then all_gather";
     "collective, exchange, all_gather" |]

(* Those of [plans] that the verified checker accepts for [p]. *)
let accepted (p : Problem.t) plans =
  let s = Problem.source_layout p and t = Problem.target_layout p in
  List.filter (fun sp -> match C.xcheck s t sp with C.OK _ -> true | C.Error _ -> false) plans

(* A random accepted hybrid of kind [variant] on a random problem of [spec]
   ([accept]ing its devices; a permuted source mesh within [world] ranks). *)
let rec draw_hybrid ?accept spec st ~world ~variant dtype =
  let q, p = draw_even ?accept spec st dtype in
  let s = Problem.source_layout p and t = Problem.target_layout p in
  let p, plans =
    match variant with
    | 0 -> (p, C.exchange_then_gather t)
    | 1 -> (p, C.collective_then_exchange s t)
    | 2 ->
        let axes = Placed_problem.draw_mesh st "s" world in
        let from = Placed_problem.draw_type st axes (C.global_shape p.src) in
        ( Problem.make_placed ~meshes:(Problem.Two (permuted_mesh st ~world axes, q.mesh)) ~strategy:C.StratAuto ~from
            ~to_:q.tgt ~dtype:(Some dtype),
          C.exchange_then_gather t )
    | _ ->
        ( p,
          List.concat_map
            (function
              | C.ByThen (mid, first, C.ByExchange) ->
                  List.map (fun second -> C.ByThen (mid, first, second)) (C.exchange_then_gather t)
              | _ -> [])
            (C.collective_then_exchange s t) )
  in
  match accepted p plans with
  | [] -> draw_hybrid ?accept spec st ~world ~variant dtype
  | sps -> (p, Placed_problem.pick st sps)

let write_hybrid_case out st ~id ~label ((p : Problem.t), sp) =
  let desc = Printf.sprintf "%s on %s, %s -> %s %s: %s" label (Problem.show_meshes p) (Front.show_ty p.env p.src)
      (Front.show_ty p.tgt_env p.tgt) p.dtype.name (String.concat "; " (Costreport.plan_file_lines p sp)) in
  write_hybrid (out (Problem.world p)) st ~id ~desc p sp

(* Placed meshes at permuted rank lists of a world of [world] ranks: one
   mesh of [target_axes ()] (odd [variant]) or from a mesh of other axes to
   one of [target_axes ()] (even); with the source's and the target's axes. *)
let permuted_meshes st ~world ~target_axes ~variant =
  let tgt_axes = target_axes () in
  if variant mod 2 = 0 then
    let src_axes = Placed_problem.draw_mesh st "s" world in
    (Problem.Two (permuted_mesh st ~world src_axes, permuted_mesh st ~world tgt_axes), src_axes, tgt_axes)
  else (Problem.One (permuted_mesh st ~world tgt_axes), tgt_axes, tgt_axes)

(* A direct exchange over [permuted_meshes], global extents [extents ()]. *)
let draw_permuted_exchange st ~world ~target_axes ~extents ~variant dtype =
  let meshes, src_axes, tgt_axes = permuted_meshes st ~world ~target_axes ~variant in
  let extents = extents () in
  let from = Placed_problem.draw_type st src_axes extents and to_ = Placed_problem.draw_type st tgt_axes extents in
  Problem.make_placed ~meshes ~strategy:C.StratExchange ~from ~to_ ~dtype:(Some dtype)

(* A reducing exchange over [permuted_meshes] ([Sum_problem.placed_types]). *)
let draw_permuted_sum ?(op = Dtype.Sum) st ~world ~target_axes ~variant dtype =
  let meshes, src_axes, tgt_axes = permuted_meshes st ~world ~target_axes ~variant in
  let from, to_, _ = Sum_problem.placed_types st (List.map fst src_axes) (List.map fst tgt_axes) in
  Problem.make_placed ~meshes ~strategy:C.StratExchange ~from:(with_op op from) ~to_:(with_op op to_) ~dtype:(Some dtype)

let exchange_desc label (p : Problem.t) =
  Printf.sprintf "%s %s, %s -> %s %s" label (Problem.show_meshes p) (Front.show_ty p.env p.src) (Front.show_ty p.tgt_env p.tgt)
    p.dtype.name

let write_sum_exchange_case out st ~id ~label (p : Problem.t) =
  let desc = Printf.sprintf "%s %s, %s -> %s %s" label (Problem.show_meshes p)
      (Sumplan.show_pty p.op p.env (p.src, p.src_pending)) (Sumplan.show_pty p.op p.tgt_env (p.tgt, p.tgt_pending)) p.dtype.name in
  write_sum_exchange (out (Problem.world p)) st ~id ~desc p

(* A pending-sum problem on a mesh of 64 devices at world rank 0: an
   array of 64 or 128 elements, 1 to all its axes pending on the source,
   the others sharding it or not, a target sharded by some axes and, a
   third of the time, pending on some of the others. *)
let draw_sum64 st dtype =
  let axes = mesh64 st "x" in
  let names = List.map fst axes in
  let pending = match Sum_problem.subset st names with [] -> [ List.hd names ] | l -> l in
  let shard free = List.filter_map (fun a -> if Random.State.bool st then Some (a, 0) else None) free in
  let extents = [ 64 * (1 + Random.State.int st 2) ] in
  let from = Sum_problem.type_text extents (shard (List.filter (fun a -> not (List.mem a pending)) names)) pending in
  let tgt_assign = shard names in
  let tgt_pending =
    if Random.State.int st 3 = 0 then Sum_problem.subset st (List.filter (fun a -> not (List.mem_assoc a tgt_assign)) names)
    else []
  in
  Problem.make_placed ~meshes:(Problem.One (Placed_problem.mesh_text axes)) ~strategy:C.StratCollectives ~from
    ~to_:(Sum_problem.type_text extents tgt_assign tgt_pending) ~dtype:(Some dtype)

(* Small global extents for 64-rank worlds: 1 or 2 dimensions of 1 to 13. *)
let extents64 st () = List.init (1 + Random.State.int st 2) (fun _ -> Placed_problem.pick st [ 1; 2; 3; 5; 7; 11; 13 ])

(* The kinds of the 64-rank cases, in turn. *)
let wide_kinds = 6

let () =
  if Array.length Sys.argv <> 13 then (
    prerr_endline
      "usage: gen_diff SEED STEPS PLANS EXCHANGES SUM_STEPS SUM_PLANS SUM_EXCHANGES HYBRIDS PERMUTED SUM_PERMUTED WIDE OUTDIR";
    exit 2);
  let count i = int_of_string Sys.argv.(i) in
  let seed = count 1 and steps = count 2 and plans = count 3 and exchanges = count 4 in
  let sum_steps = count 5 and sum_plans = count 6 and sum_exchanges = count 7 in
  let hybrids = count 8 and permuted = count 9 and sum_permuted = count 10 and wide = count 11 and dir = Sys.argv.(12) in
  let st = Random.State.make [| seed |] in
  let files = Hashtbl.create 16 and counts = Hashtbl.create 16 in
  let out devices =
    Hashtbl.replace counts devices (1 + Option.value (Hashtbl.find_opt counts devices) ~default:0);
    match Hashtbl.find_opt files devices with
    | Some oc -> oc
    | None ->
        let oc = open_out_bin (Filename.concat dir (Printf.sprintf "cases%d.txt" devices)) in
        Hashtbl.replace files devices oc;
        oc
  in
  let id = ref 0 in
  (* Draws until [case] (given the case's id and its index among its kind)
     writes [n] cases. *)
  let cases n case =
    let made = ref 0 in
    while !made < n do
      if case ~id:!id !made then (incr id; incr made)
    done
  in
  let elem_of i = elem_sizes.(i mod Array.length elem_sizes) in
  let sum_dtype i = sum_dtypes.(i mod Array.length sum_dtypes) in
  cases steps (fun ~id i ->
      let _, p = draw_even spec st "f32" in
      write_step out st ~id ~label:"step" ~kind:(i mod 4) ~elem:(elem_of i) p);
  cases plans (fun ~id i ->
      let _, p = draw_even spec st (dtype_of_size (elem_of i)) in
      write_plan out st ~id ~label:"plan" p;
      true);
  cases exchanges (fun ~id i ->
      let d = Placed_problem.draw st i in
      let d = { d with dtype = dtype_of_size (elem_of i) } in
      let p = Placed_problem.problem d Redist_core.StratExchange in
      write_exchange (out (Problem.world p)) st ~id ~desc:("exchange " ^ Placed_problem.describe d) p;
      true);
  cases sum_steps (fun ~id i ->
      let p, plan, desc = draw_sum_step st i in
      write_sum_program (out (Problem.world p)) st ~id ~desc p plan;
      true);
  cases sum_plans (fun ~id i ->
      let mesh, _, from, to_, _ = Sum_problem.draw st in
      let op = sum_op i (sum_dtype i) in
      let p =
        Problem.make_placed ~meshes:(Problem.One mesh) ~strategy:C.StratCollectives ~from:(with_op op from)
          ~to_:(with_op op to_) ~dtype:(Some (sum_dtype i))
      in
      write_sum_plan out st ~id ~label:"sum plan" p);
  cases sum_exchanges (fun ~id i ->
      (* Between two placed meshes, or on one mesh, in turn. *)
      let meshes, from, to_ =
        if i mod 2 = 0 then
          let from_mesh, to_mesh, from, to_, _ = Sum_problem.draw_placed st in
          (Problem.Two (from_mesh, to_mesh), from, to_)
        else
          let mesh, from, to_, _ = Sum_problem.draw_uneven st in
          (Problem.One mesh, from, to_)
      in
      let op = sum_op i (sum_dtype i) in
      let p =
        Problem.make_placed ~meshes ~strategy:C.StratExchange ~from:(with_op op from) ~to_:(with_op op to_)
          ~dtype:(Some (sum_dtype i))
      in
      write_sum_exchange_case out st ~id ~label:"sum exchange" p;
      true);
  let world = Placed_problem.max_world in
  cases hybrids (fun ~id i ->
      let variant = i mod Array.length hybrid_kinds in
      write_hybrid_case out st ~id ~label:(Printf.sprintf "hybrid (%s)" hybrid_kinds.(variant))
        (draw_hybrid spec st ~world ~variant (dtype_of_size (elem_of i)));
      true);
  let small_mesh () = Placed_problem.draw_mesh st "t" world in
  cases permuted (fun ~id i ->
      let p =
        draw_permuted_exchange st ~world ~target_axes:small_mesh ~extents:(fun () -> Placed_problem.draw_extents st)
          ~variant:i (dtype_of_size (elem_of i))
      in
      write_exchange (out (Problem.world p)) st ~id ~desc:(exchange_desc "permuted exchange" p) p;
      true);
  cases sum_permuted (fun ~id i ->
      let p = draw_permuted_sum ~op:(sum_op i (sum_dtype i)) st ~world ~target_axes:small_mesh ~variant:i (sum_dtype i) in
      write_sum_exchange_case out st ~id ~label:"permuted sum exchange" p;
      true);
  (* 64 ranks: a single step, a plan, a direct exchange, a hybrid, a
     pending-sum plan and a reducing exchange, in turn; the exchanges at
     permuted rank lists. *)
  let mesh_of_64 () = mesh64 st "t" in
  cases wide (fun ~id i ->
      let round = i / wide_kinds in
      match i mod wide_kinds with
      | 0 ->
          let _, p = draw_even ~accept:on_64 spec64 st "f32" in
          write_step out st ~id ~label:"64-rank step" ~kind:(round mod 4) ~elem:(elem_of i) p
      | 1 ->
          let _, p = draw_even ~accept:on_64 spec64 st (dtype_of_size (elem_of i)) in
          write_plan out st ~id ~label:"64-rank plan" p;
          true
      | 2 ->
          let p =
            draw_permuted_exchange st ~world:64 ~target_axes:mesh_of_64 ~extents:(extents64 st) ~variant:round
              (dtype_of_size (elem_of i))
          in
          write_exchange (out (Problem.world p)) st ~id ~desc:(exchange_desc "64-rank exchange" p) p;
          true
      | 3 ->
          let variant = (2 + round) mod Array.length hybrid_kinds in
          write_hybrid_case out st ~id ~label:(Printf.sprintf "64-rank hybrid (%s)" hybrid_kinds.(variant))
            (draw_hybrid ~accept:on_64 spec64 st ~world:64 ~variant (dtype_of_size (elem_of i)));
          true
      | 4 -> write_sum_plan out st ~id ~label:"64-rank sum plan" (draw_sum64 st (sum_dtype i))
      | _ ->
          let p = draw_permuted_sum st ~world:64 ~target_axes:mesh_of_64 ~variant:round (sum_dtype i) in
          write_sum_exchange_case out st ~id ~label:"64-rank sum exchange" p;
          true);
  Hashtbl.iter (fun _ oc -> close_out oc) files;
  let oc = open_out (Filename.concat dir "sizes.txt") in
  let sizes = List.sort compare (List.of_seq (Hashtbl.to_seq counts)) in
  List.iter (fun (d, n) -> Printf.fprintf oc "%d %d\n" d n) sizes;
  close_out oc;
  let oc = open_out (Filename.concat dir "ops.txt") in
  List.iter
    (fun floating ->
      Array.iter
        (fun op ->
          let kind = reduction_kind op ~floating in
          Printf.fprintf oc "%s %d\n" kind (Option.value (Hashtbl.find_opt op_counts kind) ~default:0))
        sum_ops)
    [ false; true ];
  close_out oc;
  Printf.printf
    "diff-steps: seed %d, %d single steps, %d plans, %d exchanges; pending sums: %d steps, %d plans, %d exchanges; %d hybrids, %d permuted exchanges, %d permuted reducing exchanges, %d cases on 64 ranks; world sizes %s\n"
    seed steps plans exchanges sum_steps sum_plans sum_exchanges hybrids permuted sum_permuted wide
    (String.concat ", " (List.map (fun (d, n) -> Printf.sprintf "%d (%d cases)" d n) sizes))
