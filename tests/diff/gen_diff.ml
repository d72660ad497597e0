(* Cases of the step-by-step differential test (tests/diff/run.sh).

     gen_diff.exe SEED STEPS PLANS EXCHANGES OUTDIR

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
   bytes and the expected destination bytes of every rank.  Writes
   OUTDIR/casesN.txt, the cases on N ranks in the format
   tests/diff/diff_main.cpp reads, and OUTDIR/sizes.txt, one line "RANKS
   COUNT" per world size. *)

open Redist_cli
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

(* One case: the program, then per rank its random source bytes and the
   destination bytes the extracted semantics gives. *)
let write_case oc st ~id ~desc ~mesh_sizes ~elem ~src_shape ~tgt_shape calls =
  let devices = List.fold_left ( * ) 1 mesh_sizes in
  let prog = Lowering.program_of_calls ~mesh_sizes ~elem_bytes:elem ~src_shape ~tgt_shape calls in
  let ints l = String.concat " " (List.map string_of_int l) in
  let arr a = ints (Array.to_list a) in
  Printf.fprintf oc "case %d %s\n%d %s\n%d\n%d %s\n%d %s\n%d %d %d\n" id desc (Array.length prog.mesh_sizes)
    (arr prog.mesh_sizes) elem (Array.length prog.src_shape) (arr prog.src_shape) (Array.length prog.tgt_shape)
    (arr prog.tgt_shape) prog.ping_bytes prog.pong_bytes prog.scratch_bytes;
  Printf.fprintf oc "%d %s\n%d\n" (Array.length prog.groups)
    (ints (List.concat_map (fun (s, z) -> [ s; z ]) (Array.to_list prog.groups)))
    (Array.length prog.steps);
  Array.iter
    (fun (s : Lowering.step) ->
      Printf.fprintf oc "%d %d %d %d %s %d %d %d %d %d %s\n" s.op s.stride s.size (Array.length s.shape) (arr s.shape)
        s.dim_a s.dim_b s.input s.output (Array.length s.recv_from) (arr s.recv_from))
    prog.steps;
  let src_elems = List.fold_left ( * ) 1 src_shape in
  (* Element l of rank r's source is labelled (r, its row-major position). *)
  let labels : (int * int) C.state = fun r l -> (r, linear src_shape l) in
  let unset : (int * int) C.state = fun _ _ -> (-1, -1) in
  let bs = C.interp_rank calls (fun b -> match b with C.BSrc -> labels | _ -> unset) in
  write_bytes oc st ~id ~ranks:devices ~elem ~src_elems:(fun _ -> src_elems) ~tgt_shape:(fun _ -> tgt_shape)
    (bs C.BDst)

(* A direct exchange: the stated live bytes ([splan_live_bytes]), both
   placed layouts as Lowering.exchange gives them to the runtime's
   Exchange, then per world rank the bytes, from
   [message_wire] over the extracted [lower_exchange]. *)
let write_exchange oc st ~id ~desc (p : Problem.t) =
  let s = Problem.source_layout p and t = Problem.target_layout p in
  let x = Lowering.exchange p in
  let ints l = String.concat " " (List.map string_of_int l) in
  let arr a = ints (Array.to_list a) in
  let placed (pl : Lowering.placed_layout) =
    Printf.fprintf oc "%d %s\n%d %s\n%d %s\n%s\n" (Array.length pl.axis_sizes) (arr pl.axis_sizes)
      (Array.length pl.ranks) (arr pl.ranks) (Array.length pl.extents) (arr pl.extents)
      (String.concat " " (List.map (fun a -> Printf.sprintf "%d %s" (Array.length a) (arr a)) (Array.to_list pl.axes)))
  in
  let world = Problem.world p in
  Printf.fprintf oc "xcase %d %s\n%d %d %d\n" id desc world x.x_elem_bytes
    (C.splan_live_bytes x.x_elem_bytes s t C.ByExchange);
  placed x.source;
  placed x.target;
  let shape (l : C.layout) r = match C.pl_box l r with Some b -> C.box_shape b | None -> [] in
  let elems l r = match C.pl_box l r with Some b -> C.box_size b | None -> 0 in
  let wire = C.message_wire (C.lower_exchange s t) in
  write_bytes oc st ~id ~ranks:world ~elem:x.x_elem_bytes ~src_elems:(elems s)
    ~tgt_shape:(fun r -> if C.pl_box t r = None then [ 0 ] else shape t r)
    (fun r l -> let r', l' = wire r l in (r', linear (shape s r') l'))

(* A reducing exchange: a drawn placed problem with pending axes added on
   each side (a random subset of the mesh axes that shard nothing, at least
   one on the source when there is one), unsigned elements of 1, 2 or 4
   bytes (sums wrap as the runtime's do).  Writes the header's workspace
   and live bytes ([lower_sumx]: sx_workspace_bytes, sumplan_live_bytes),
   both placed layouts with their pending axes, then per world rank: its
   random source bytes, the destination bytes [sumx_dst] gives over the
   integers modulo 2^(8 elem), the messages it receives (per piece, each
   sender other than itself, with the cell's elements, in posting order)
   and sends ([sx_sends]), and its staging ([sx_staging]). *)
let sum_elem_sizes = [| 1; 2; 4 |]

let uint_dtype = function 1 -> "u8" | 2 -> "u16" | _ -> "u32"

let draw_pending st (l : C.layout) ~at_least_one =
  let used = C.ty_axes l.ly_ty in
  let free = List.filter (fun a -> not (List.mem a used)) (List.map fst l.ly_mesh.pm_mesh) in
  match List.filter (fun _ -> Random.State.bool st) free with
  | [] when at_least_one && free <> [] -> [ List.nth free (Random.State.int st (List.length free)) ]
  | axes -> axes

let write_sum_exchange oc st ~id ~desc (p : Problem.t) =
  let s = Problem.source_layout p and t = Problem.target_layout p in
  let ps = draw_pending st s ~at_least_one:true and pt = draw_pending st t ~at_least_one:false in
  let p = { p with src_pending = ps; tgt_pending = pt } in
  let elem = p.elem_bytes in
  let x = C.lower_sumx elem s ps t pt in
  let sl = Lowering.exchange p in
  let ints l = String.concat " " (List.map string_of_int l) in
  let arr a = ints (Array.to_list a) in
  let placed (pl : Lowering.placed_layout) pending =
    Printf.fprintf oc "%d %s\n%d %s\n%d %s\n%s\n%d %s\n" (Array.length pl.axis_sizes) (arr pl.axis_sizes)
      (Array.length pl.ranks) (arr pl.ranks) (Array.length pl.extents) (arr pl.extents)
      (String.concat " " (List.map (fun a -> Printf.sprintf "%d %s" (Array.length a) (arr a)) (Array.to_list pl.axes)))
      (List.length pending) (ints pending)
  in
  let world = Problem.world p in
  Printf.fprintf oc "scase %d %s sum{%s} -> sum{%s}\n%d %d %d %d\n" id desc (ints ps) (ints pt) world elem
    x.sx_workspace_bytes (C.sumplan_live_bytes elem s ps t pt C.SumByExchange);
  placed sl.source ps;
  placed sl.target pt;
  let shape (l : C.layout) r = match C.pl_box l r with Some b -> C.box_shape b | None -> [] in
  let elems l r = match C.pl_box l r with Some b -> C.box_size b | None -> 0 in
  let src = Array.init world (fun r -> Array.init (elems s r * elem) (fun _ -> Random.State.int st 256)) in
  let mask = (1 lsl (8 * elem)) - 1 in
  let value r l =
    let k = linear (shape s r) l in
    List.fold_left (fun acc b -> (acc lsl 8) lor src.(r).((k * elem) + b)) 0 (List.rev (List.init elem Fun.id))
  in
  let uints : C.cmonoid = { zero = Obj.repr 0; add0 = (fun a b -> Obj.repr ((Obj.obj a + Obj.obj b) land mask)) } in
  let dst = C.sumx_dst uints x (fun r l -> Obj.repr (value r l)) in
  let peers l = Printf.sprintf "%d %s" (List.length l) (ints (List.concat_map (fun (r, n) -> [ r; n ]) l)) in
  for r = 0 to world - 1 do
    let expected =
      match C.pl_box t r with
      | None -> []
      | Some b ->
          List.concat_map
            (fun l -> let v : int = Obj.obj (dst r l) in List.init elem (fun k -> (v lsr (8 * k)) land 255))
            (indices (C.box_shape b))
    in
    let receives =
      List.concat_map
        (fun (piece : C.sx_piece) ->
          List.filter_map (fun w -> if w = r then None else Some (w, C.box_size piece.xp_cell)) piece.xp_senders)
        (x.sx_pieces r)
    in
    let sends = List.map (fun (w, cell) -> (w, C.box_size cell)) (x.sx_sends r) in
    Printf.fprintf oc "%s\n%s\n%s\n%s\n%d\n" (hex src.(r)) (hex (Array.of_list expected)) (peers receives) (peers sends)
      (x.sx_staging r)
  done

let () =
  if Array.length Sys.argv <> 7 then (prerr_endline "usage: gen_diff SEED STEPS PLANS EXCHANGES SUM_EXCHANGES OUTDIR"; exit 2);
  let seed = int_of_string Sys.argv.(1) and steps = int_of_string Sys.argv.(2) in
  let plans = int_of_string Sys.argv.(3) and exchanges = int_of_string Sys.argv.(4) in
  let sum_exchanges = int_of_string Sys.argv.(5) and dir = Sys.argv.(6) in
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
  let sizes_of (env : Front.env) = List.map (fun (a : Front.axis_info) -> a.size) env.axes in
  let id = ref 0 in
  let made = ref 0 in
  while !made < steps do
    let q = Random_problem.draw spec st in
    let p = Problem.make ~mesh:q.mesh ~from:q.src ~to_:q.tgt ~dtype:(Some q.dtype) in
    let m = Front.core_mesh p.env in
    let kind = !made mod 4 in
    match candidates m p.src kind with
    | [] -> ()
    | ks ->
        let k = List.nth ks (Random.State.int st (List.length ks)) in
        let elem = elem_sizes.(!made mod Array.length elem_sizes) in
        let t' = match C.step_type m p.src k with C.OK t' -> t' | C.Error _ -> assert false in
        let desc = Printf.sprintf "step %s on %s from %s, %d-byte elements" (Front.show_collective p.env k)
            (Front.show_mesh p.env) (Front.show_ty p.env p.src) elem in
        write_case (out (C.mesh_size m)) st ~id:!id ~desc ~mesh_sizes:(sizes_of p.env) ~elem
          ~src_shape:(C.local_shape m p.src) ~tgt_shape:(C.local_shape m t') (C.lower m elem p.src [ k ]);
        incr id;
        incr made
  done;
  for i = 0 to plans - 1 do
    let q = Random_problem.draw spec st in
    let dtype = dtype_of_size elem_sizes.(i mod Array.length elem_sizes) in
    let p = Problem.make ~mesh:q.mesh ~from:q.src ~to_:q.tgt ~dtype:(Some dtype) in
    let r, _ = Planning.plan p in
    let base = Front.core_mesh p.env in
    let desc = Printf.sprintf "plan of %d steps for %s %s -> %s %s" (List.length r.steps) (Front.show_mesh p.env)
        (Front.show_ty p.env p.src) (Front.show_ty p.env p.tgt) dtype in
    write_case (out (C.mesh_size base)) st ~id:!id ~desc ~mesh_sizes:(sizes_of p.env) ~elem:p.elem_bytes
      ~src_shape:(C.local_shape base p.src) ~tgt_shape:(C.local_shape base p.tgt) (Lazy.force r.calls);
    incr id
  done;
  for i = 0 to exchanges - 1 do
    let d = Placed_problem.draw st i in
    let d = { d with dtype = dtype_of_size elem_sizes.(i mod Array.length elem_sizes) } in
    let p = Placed_problem.problem d Redist_core.StratExchange in
    write_exchange (out (Problem.world p)) st ~id:!id ~desc:("exchange " ^ Placed_problem.describe d) p;
    incr id
  done;
  for i = 0 to sum_exchanges - 1 do
    let d = Placed_problem.draw st i in
    let d = { d with dtype = uint_dtype sum_elem_sizes.(i mod Array.length sum_elem_sizes) } in
    let p = Placed_problem.problem d Redist_core.StratExchange in
    write_sum_exchange (out (Problem.world p)) st ~id:!id ~desc:("reducing exchange " ^ Placed_problem.describe d) p;
    incr id
  done;
  Hashtbl.iter (fun _ oc -> close_out oc) files;
  let oc = open_out (Filename.concat dir "sizes.txt") in
  List.iter (fun (d, n) -> Printf.fprintf oc "%d %d\n" d n) (List.sort compare (List.of_seq (Hashtbl.to_seq counts)));
  close_out oc;
  Printf.printf "diff-steps: seed %d, %d single steps, %d plans, %d exchanges, %d reducing exchanges\n" seed steps plans
    exchanges sum_exchanges
