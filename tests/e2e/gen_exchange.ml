(* Random end-to-end problems of the direct exchange, for
   tests/e2e/exchange.sh.

     gen_exchange.exe SEED COUNT PER_TU OUTDIR

   Draws COUNT problems from SEED in three classes, in turn:
   - uneven: one mesh at world rank 0, extents from small primes (often
     fewer elements than devices, so some boxes are empty);
   - cross-mesh: a source and a target mesh of different shapes and sizes
     in one world of at most 12 ranks, each contiguous from a random first
     rank or a permuted list of distinct ranks (so the rank sets are
     disjoint, overlapping or nested);
   - even: tests/problems' well-formed one-mesh problems, planned by both
     strategies; the driver checks both results.
   Every dtype.  Each problem goes through the command's own front end
   ([Problem.make_placed], in the command-line notation) and emitter
   ([Emit.render_exchange], and [Emit.render] for the collectives).
   Writes OUTDIR/xN.hpp (and cN.hpp), OUTDIR/tuK.cpp with a table entry per
   problem, OUTDIR/tables.hpp and OUTDIR/sizes.txt ("WORLD COUNT" lines). *)

open Redist_cli

let pick st l = List.nth l (Random.State.int st (List.length l))
let shuffle st l = List.map snd (List.sort compare (List.map (fun x -> (Random.State.bits st, x)) l))

let primes = [ 1; 2; 3; 5; 7; 11; 13; 17; 19; 23; 29 ]
let max_world = 12

(* A mesh of 1 to 3 axes named by [prefix], at most [max_devices] devices. *)
let draw_mesh st prefix max_devices =
  let rec go acc devices k =
    let fits = List.filter (fun s -> devices * s <= max_devices) [ 1; 2; 3; 4; 5 ] in
    if k = 0 || fits = [] then List.rev acc
    else
      let s = pick st fits in
      go ((Printf.sprintf "%s%d" prefix (List.length acc), s) :: acc) (devices * s) (k - 1)
  in
  go [] 1 (1 + Random.State.int st 3)

let mesh_text axes = "{" ^ String.concat ", " (List.map (fun (a, s) -> Printf.sprintf "%s:%d" a s) axes) ^ "}"
let devices axes = List.fold_left (fun acc (_, s) -> acc * s) 1 axes

(* Each axis to one dimension or to none, in random order; the local size
   left out (the ceil block) or, half the time on a sharded dim, written. *)
let draw_type st axes extents =
  let rank = List.length extents in
  let dims = Array.make rank [] in
  List.iter (fun (a, s) -> let d = Random.State.int st (rank + 1) in if d < rank then dims.(d) <- dims.(d) @ [ (a, s) ])
    (shuffle st axes);
  "["
  ^ String.concat ", "
      (List.mapi
         (fun d n ->
           match dims.(d) with
           | [] -> string_of_int n
           | sharded ->
               let p = devices sharded in
               let names = "{" ^ String.concat "," (List.map fst sharded) ^ "}" in
               if Random.State.bool st then Printf.sprintf "%d%s%d" ((n + p - 1) / p) names n
               else names ^ string_of_int n)
         extents)
  ^ "]"

let draw_extents st = List.init (1 + Random.State.int st 3) (fun _ -> pick st primes)

(* Contiguous from a first rank, or distinct ranks in random order. *)
let draw_placement st n =
  if Random.State.bool st then
    let k = Random.State.int st (max_world - n + 1) in
    (Printf.sprintf " @ %d" k, k + n)
  else
    let ranks = List.filteri (fun i _ -> i < n) (shuffle st (List.init max_world Fun.id)) in
    (" @ [" ^ String.concat ", " (List.map string_of_int ranks) ^ "]", 1 + List.fold_left max 0 ranks)

type drawn = { meshes : Problem.meshes; from : string; to_ : string; dtype : string; both : bool; what : string }

let draw st i =
  let dtype = pick st (List.map fst Front.dtypes) in
  match i mod 3 with
  | 0 ->
      let axes = draw_mesh st "m" max_world in
      let extents = draw_extents st in
      { meshes = Problem.One (mesh_text axes); from = draw_type st axes extents; to_ = draw_type st axes extents;
        dtype; both = false; what = "uneven" }
  | 1 ->
      let sa = draw_mesh st "s" max_world and ta = draw_mesh st "t" max_world in
      let sp, _ = draw_placement st (devices sa) and tp, _ = draw_placement st (devices ta) in
      let extents = draw_extents st in
      { meshes = Problem.Two (mesh_text sa ^ sp, mesh_text ta ^ tp); from = draw_type st sa extents;
        to_ = draw_type st ta extents; dtype; both = false; what = "cross-mesh" }
  | _ ->
      let spec =
        { Random_problem.max_devices = max_world; axis_sizes = [ 1; 2; 3; 4 ]; max_axes = 3; max_rank = 3;
          multipliers = [ 1; 2; 3 ]; max_global_elems = 4096; dtypes = List.map fst Front.dtypes }
      in
      let q = Random_problem.draw spec st in
      { meshes = Problem.One q.mesh; from = q.src; to_ = q.tgt; dtype = q.dtype; both = true; what = "even" }

let describe d =
  let m = match d.meshes with Problem.One m -> m | Problem.Two (f, t) -> f ^ " -> " ^ t in
  Printf.sprintf "%s: %s %s -> %s %s" d.what m d.from d.to_ d.dtype

let write file text =
  let oc = open_out_bin file in
  output_string oc text;
  close_out oc

let () =
  if Array.length Sys.argv <> 5 then (prerr_endline "usage: gen_exchange SEED COUNT PER_TU OUTDIR"; exit 2);
  let seed = int_of_string Sys.argv.(1) and count = int_of_string Sys.argv.(2) in
  let per_tu = int_of_string Sys.argv.(3) and dir = Sys.argv.(4) in
  Printf.printf "exchange e2e: seed %d, %d problems, %d per translation unit\n%!" seed count per_tu;
  let st = Random.State.make [| seed |] in
  let worlds = Hashtbl.create 16 in
  let tus = (count + per_tu - 1) / per_tu in
  for tu = 0 to tus - 1 do
    let b = Buffer.create 65536 in
    let add fmt = Printf.ksprintf (fun s -> Buffer.add_string b s; Buffer.add_char b '\n') fmt in
    add "// Generated by tests/e2e/gen_exchange.ml (seed %d)." seed;
    add "#include \"exchange_e2e.hpp\"";
    let entries = ref [] in
    for i = tu * per_tu to min count ((tu + 1) * per_tu) - 1 do
      let d = draw st i in
      let problem strategy =
        Problem.make_placed ~meshes:d.meshes ~strategy ~from:d.from ~to_:d.to_ ~dtype:(Some d.dtype)
      in
      let p = problem Redist_core.StratExchange in
      let x = Printf.sprintf "x%d" i in
      (match Planning.choose p with
       | Xreport.Exchange r, guarantees -> write (Filename.concat dir (x ^ ".hpp")) (Emit.render_exchange ~name:x r ~guarantees)
       | Xreport.Collectives _, _ -> failwith "--strategy exchange gave collectives");
      let world = Problem.world p in
      Hashtbl.replace worlds world (1 + Option.value (Hashtbl.find_opt worlds world) ~default:0);
      add "";
      add "#include \"%s.hpp\"  // %s" x (describe d);
      add "static redist::Status %s_run(redist::Exchange& ex, const void* s, std::size_t sb, void* d, std::size_t db) {" x;
      add "  using T = redist_gen::%s::value_type;" x;
      add "  return redist_gen::%s::run(ex, static_cast<const T*>(s), sb, static_cast<T*>(d), db);" x;
      add "}";
      let collectives =
        if not d.both then "nullptr"
        else begin
          let c = Printf.sprintf "c%d" i in
          let r, guarantees = Planning.plan (problem Redist_core.StratCollectives) in
          write (Filename.concat dir (c ^ ".hpp")) (Emit.render ~name:c ~backend:Emit.Mpi r ~guarantees);
          add "#include \"%s.hpp\"" c;
          add "static const collective_plan %s_plan = {&redist_gen::%s::create_mesh, &redist_gen::%s::run," c c c;
          add "    &redist_gen::%s::src_box, &redist_gen::%s::tgt_box, redist_gen::%s::kRank, redist_gen::%s::kSrcBytes," c c c c;
          add "    redist_gen::%s::kTgtBytes, redist_gen::%s::kWorkspaceBytes};" c c;
          "&" ^ c ^ "_plan"
        end
      in
      entries :=
        Printf.sprintf "{\"%s\", %d, redist_gen::%s::kElemBytes, &redist_gen::%s::create_exchange, &%s_run, %s}"
          (String.escaped (describe d)) world x x x collectives
        :: !entries
    done;
    add "";
    add "extern const exchange_entry tu%d_problems[] = {" tu;
    List.iter (fun e -> add "    %s," e) (List.rev !entries);
    add "};";
    add "extern const int tu%d_count = %d;" tu (List.length !entries);
    write (Filename.concat dir (Printf.sprintf "tu%d.cpp" tu)) (Buffer.contents b)
  done;
  let decls = List.init tus (fun k -> Printf.sprintf "extern const exchange_entry tu%d_problems[];\nextern const int tu%d_count;" k k) in
  let table = List.init tus (fun k -> Printf.sprintf "    {tu%d_problems, tu%d_count}," k k) in
  write (Filename.concat dir "tables.hpp")
    (String.concat "\n" (decls @ [ "static const exchange_table kTables[] = {" ] @ table @ [ "};"; "" ]));
  let oc = open_out (Filename.concat dir "sizes.txt") in
  List.iter (fun (w, n) -> Printf.fprintf oc "%d %d\n" w n) (List.sort compare (List.of_seq (Hashtbl.to_seq worlds)));
  close_out oc
