(* The extracted in-place plan (generator, then the validator on runs)
   on random problems: uneven sizes, one mesh or two placed anywhere,
   staging budgets from one element to unbounded; on even sizes, where runs
   are long; on uneven sizes of up to a few hundred elements per dimension
   over meshes of up to 16 devices, where the runs of a message have no
   common block.  Every accepted schedule is run here on one buffer per
   rank, by this file's own reading of a round (all runs read at the
   round's start, then written), and every target element checked.  And
   64-rank and 16 MiB problems plan within seconds. *)
open Redist_core

let seed = 20261128

let gen_mesh_of max_devices = Mesh_gen.mesh ~max_axes:2 ~names:4 ~max_devices ~sizes:[ 1; 2; 2; 3; 4 ]

let gen_problem_on ~max_devices ~max_rank sizes =
  let open QCheck.Gen in
  let gen_mesh = gen_mesh_of max_devices in
  gen_mesh >>= fun ma ->
  gen_mesh >>= fun mb ->
  Mesh_gen.placed ~spare:3 ma >>= fun pa ->
  Mesh_gen.placed ~spare:3 mb >>= fun pb ->
  bool >>= fun same ->
  let pb = if same then pa else pb in
  int_range 1 max_rank >>= fun rank ->
  list_repeat rank (oneofl sizes) >>= fun ns ->
  Mesh_gen.dims_axes pa.pm_mesh rank >>= fun a ->
  Mesh_gen.dims_axes pb.pm_mesh rank >>= fun b ->
  return ({ ly_mesh = pa; ly_ty = List.combine a ns }, { ly_mesh = pb; ly_ty = List.combine b ns })

let gen_problem = gen_problem_on ~max_devices:8 ~max_rank:3 [ 1; 2; 3; 4; 5; 6; 7; 9 ]

(* Multiples of every mesh size up to 4: long runs. *)
let gen_even_problem = gen_problem_on ~max_devices:8 ~max_rank:2 [ 12; 24 ]

(* Primes and odd sizes, up to 16 devices: ceil blocks of unequal sizes, rows cut anywhere. *)
let gen_uneven_problem = gen_problem_on ~max_devices:16 ~max_rank:2 [ 13; 37; 61; 101; 250 ]

let pp_layout l =
  Printf.sprintf "{%s} @ [%s] [%s]"
    (String.concat ", " (List.map (fun (x, s) -> Printf.sprintf "%d:%d" x s) l.ly_mesh.pm_mesh))
    (String.concat ", " (List.map string_of_int l.ly_mesh.pm_ranks))
    (String.concat ", "
       (List.map
          (fun (xs, n) -> Printf.sprintf "{%s}%d" (String.concat "," (List.map string_of_int xs)) n)
          l.ly_ty))

(* The global indices of a box in row-major order: what its buffer holds. *)
let rec row_major = function
  | [] -> [ [] ]
  | (lo, n) :: rest ->
      let tails = row_major rest in
      List.concat_map (fun i -> List.map (fun t -> (lo + i) :: t) tails) (List.init n Fun.id)

let held l w = match pl_box l w with Some b -> List.length (row_major b) | None -> 0

let ranks s t = List.sort_uniq compare (s.ly_mesh.pm_ranks @ t.ly_mesh.pm_ranks)

let cell x k = (x.pl_rank, x.pl_area, x.pl_off + k)

(* [None] when the schedule moves every element right within its memory, else why not. *)
let simulate s t budget sc =
  let mem = Hashtbl.create 64 in
  List.iter
    (fun w ->
      match pl_box s w with
      | Some b -> List.iteri (fun q g -> Hashtbl.replace mem (w, Buf, q) g) (row_major b)
      | None -> ())
    s.ly_mesh.pm_ranks;
  let room x = match x.pl_area with Buf -> max (held s x.pl_rank) (held t x.pl_rank) | Stage -> budget in
  let outside =
    List.exists (List.exists (fun mv -> mv.mv_from.pl_off + mv.mv_len > room mv.mv_from
                                        || mv.mv_to.pl_off + mv.mv_len > room mv.mv_to)) sc
  in
  if outside then Some "a run outside its buffer or staging"
  else begin
    List.iter
      (fun rd ->
        let reads =
          List.concat_map
            (fun mv -> List.init mv.mv_len (fun k -> (cell mv.mv_to k, Hashtbl.find_opt mem (cell mv.mv_from k))))
            rd
        in
        List.iter (fun (y, v) -> match v with Some g -> Hashtbl.replace mem y g | None -> Hashtbl.remove mem y) reads)
      sc;
    let wrong w =
      match pl_box t w with
      | Some b ->
          List.exists Fun.id (List.mapi (fun p g -> Hashtbl.find_opt mem (w, Buf, p) <> Some g) (row_major b))
      | None -> false
    in
    let recv w =
      List.fold_left (fun acc rd ->
          List.fold_left (fun acc mv ->
              if mv.mv_to.pl_rank = w && mv.mv_from.pl_rank <> w then acc + mv.mv_len else acc) acc rd) 0 sc
    in
    match List.find_opt wrong t.ly_mesh.pm_ranks with
    | Some w -> Some (Printf.sprintf "rank %d's buffer is not its target box" w)
    | None -> (
        match List.find_opt (fun w -> recv w <> recv_lower_bound s t w) (ranks s t) with
        | Some w -> Some (Printf.sprintf "rank %d receives %d, the bound is %d" w (recv w) (recv_lower_bound s t w))
        | None -> None)
  end

let rec drop_last = function [] | [ _ ] -> [] | x :: xs -> x :: drop_last xs

let judge s t budget =
  match inplace_plan s t budget with
  | None -> Some "no schedule"
  | Some sc -> (
      match simulate s t budget sc with
      | Some why -> Some why
      | None ->
          if not (validate s t budget sc) then Some "the element-by-element validator refuses the plan"
          (* Without its last round a schedule leaves some target place wrong. *)
          else if sc <> [] && validate s t budget (drop_last sc) then
            Some "validator accepts the schedule less its last round"
          else if sc <> [] && validate_runs s t budget (drop_last sc) then
            Some "the validator on runs accepts the schedule less its last round"
          else None)

let longest_run sc = List.fold_left (List.fold_left (fun m mv -> max m mv.mv_len)) 0 sc

(* [n] problems of [gen] at [budgets] (the last: unbounded): the
   problem-budget pairs checked, the most rounds, the longest run, and what
   went wrong. *)
let check_problems ?(budgets = [ 1; 2; 5; 64 ]) gen n =
  let rand = Random.State.make [| seed |] in
  let bad = ref [] and checked = ref 0 and max_rounds = ref 0 and max_run = ref 0 in
  for _ = 1 to n do
    let s, t = gen rand in
    if layouts_wf s t then begin
      let unbounded = 1 + List.fold_left (fun acc w -> acc + held s w + held t w) 0 (ranks s t) in
      List.iter
        (fun budget ->
          incr checked;
          (match inplace_plan s t budget with
           | Some sc ->
               max_rounds := max !max_rounds (List.length sc);
               max_run := max !max_run (longest_run sc)
           | None -> ());
          match judge s t budget with
          | None -> ()
          | Some why ->
              bad := Printf.sprintf "%s -> %s, staging %d: %s" (pp_layout s) (pp_layout t) budget why :: !bad)
        (budgets @ [ unbounded ])
    end
  done;
  List.iteri (fun i b -> if i < 5 then print_endline b) (List.rev !bad);
  Printf.printf "%d problem-budget pairs checked, at most %d rounds, runs of up to %d elements\n" !checked
    !max_rounds !max_run;
  (!checked, !max_run, List.length !bad)

let random_problems () =
  let n = 200 in
  let checked, _, bad = check_problems gen_problem n in
  Alcotest.(check bool) "most problems well-formed" true (checked >= 5 * n * 3 / 4);
  Alcotest.(check int) (Printf.sprintf "bad results among %d problem-budget pairs" checked) 0 bad

let even_problems () =
  let n = 100 in
  let checked, max_run, bad = check_problems gen_even_problem n in
  Alcotest.(check bool) "most problems well-formed" true (checked >= 5 * n * 3 / 4);
  Alcotest.(check bool) "runs of more than one element" true (max_run > 1);
  Alcotest.(check int) (Printf.sprintf "bad results among %d problem-budget pairs" checked) 0 bad

(* Uneven boxes with rows of hundreds of elements: a common block of the
   runs would be one element; runs of any length plan and check. *)
let uneven_problems () =
  let n = 60 in
  let checked, max_run, bad = check_problems ~budgets:[ 97; 500; 4000 ] gen_uneven_problem n in
  Alcotest.(check bool) "most problems well-formed" true (checked >= 5 * n * 3 / 4);
  Alcotest.(check bool) "runs of more than 12 elements" true (max_run > 12);
  Alcotest.(check int) (Printf.sprintf "bad results among %d problem-budget pairs" checked) 0 bad

(* Rows over every rank to columns over every rank of [world] ranks, [n] x [n]
   elements: every place of every buffer is read and written, so the
   staging paces the schedule. *)
let rows_to_cols world n =
  let m = [ (0, world) ] in
  ({ ly_mesh = placed_at m 0; ly_ty = [ ([ 0 ], n); ([], n) ] }, { ly_mesh = placed_at m 0; ly_ty = [ ([], n); ([ 0 ], n) ] })

(* Large problems: planned (the generator, then the proven validator on
   runs) within [seconds] of processor time, the staging 5% of the largest buffer, in rounds
   close to what the staging allows: each round moves at most half the
   staging per rank through it, so about 2 x buffer / staging rounds. *)
let plans_fast name (s, t) ~seconds =
  let buffer = List.fold_left (fun m w -> max m (buf_size s t w)) 0 (ranks_of s t) in
  let staging = buffer / 20 in
  let t0 = Sys.time () in
  let plan = inplace_plan s t staging in
  let took = Sys.time () -. t0 in
  let rounds = match plan with Some sc -> List.length sc | None -> 0 in
  Printf.printf "%s: %d rounds in %.2f s of processor time (buffer %d, staging %d elements)\n" name rounds took buffer staging;
  Alcotest.(check bool) (name ^ " planned") true (plan <> None);
  Alcotest.(check bool) (Printf.sprintf "%s: %d rounds, at most 2 x 20 + 4" name rounds) true (rounds <= 44);
  Alcotest.(check bool) (Printf.sprintf "%s planned in %.2f s, within %.0f s" name took seconds) true (took <= seconds)

let large_problems () =
  plans_fast "64 ranks, 1000 x 1000 rows to columns" (rows_to_cols 64 1000) ~seconds:20.;
  plans_fast "8 x 8 ranks, 2048 x 2048 transpose"
    (let m = [ (0, 8); (1, 8) ] in
     ( { ly_mesh = placed_at m 0; ly_ty = [ ([ 0 ], 2048); ([ 1 ], 2048) ] },
       { ly_mesh = placed_at m 0; ly_ty = [ ([ 1 ], 2048); ([ 0 ], 2048) ] } ))
    ~seconds:20.;
  plans_fast "4 ranks, 2048 x 2048 rows to columns (16 MiB of f32)" (rows_to_cols 4 2048) ~seconds:20.

(* A full buffer permuted on each rank (rows to columns on 2 x 2 devices,
   6 x 6 elements): every place waits on another, so cycles go through a
   staging of one element. *)
let transpose_one_element () =
  let m = [ (0, 2); (1, 2) ] in
  let s = { ly_mesh = placed_at m 0; ly_ty = [ ([ 0 ], 6); ([ 1 ], 6) ] }
  and t = { ly_mesh = placed_at m 0; ly_ty = [ ([ 1 ], 6); ([ 0 ], 6) ] } in
  Alcotest.(check (option string)) "staging 1" None (judge s t 1);
  Alcotest.(check (option string)) "staging 9" None (judge s t 9)

(* No staging: a cycle cannot be broken, so there is no plan. *)
let no_staging () =
  let m = [ (0, 2) ] in
  let s = { ly_mesh = placed_at m 0; ly_ty = [ ([ 0 ], 4); ([], 3) ] }
  and t = { ly_mesh = placed_at m 0; ly_ty = [ ([], 4); ([ 0 ], 3) ] } in
  Alcotest.(check bool) "refused" true (inplace_plan s t 0 = None);
  Alcotest.(check (option string)) "staging 1" None (judge s t 1)

(* A schedule that reads a place after an earlier round overwrote it is refused. *)
let overwritten_read_refused () =
  let m = [ (0, 2) ] in
  let s = { ly_mesh = placed_at m 0; ly_ty = [ ([ 0 ], 4) ] }
  and t = { ly_mesh = placed_at m 0; ly_ty = [ ([], 4) ] } in
  let place w a q = { pl_rank = w; pl_area = a; pl_off = q } in
  let mv f t n = { mv_from = f; mv_to = t; mv_len = n } in
  (* Every rank gathers the whole array: rank 1 must send [2,4) (its
     places 0 and 1) to rank 0 and to its own places 2 and 3 before rank 0's
     [0,2) lands on its places 0 and 1. *)
  let send_first = [ mv (place 1 Buf 0) (place 0 Buf 2) 2; mv (place 1 Buf 0) (place 1 Buf 2) 2 ]
  and receive = [ mv (place 0 Buf 0) (place 1 Buf 0) 2 ] in
  Alcotest.(check bool) "sends, then the receive" true (validate s t 0 [ send_first; receive ]);
  Alcotest.(check bool) "the receive first" false (validate s t 0 [ receive; send_first ]);
  (* On blocks: runs of 2 at offsets 0 and 2 are blocks of 2, not of 4. *)
  Alcotest.(check bool) "blocks of 2: sends, then the receive" true (validate_blocks s t 0 2 [ send_first; receive ]);
  Alcotest.(check bool) "blocks of 2: the receive first" false (validate_blocks s t 0 2 [ receive; send_first ]);
  Alcotest.(check bool) "blocks of 4 do not fit these runs" false (validate_blocks s t 0 4 [ send_first; receive ]);
  Alcotest.(check bool) "runs: sends, then the receive" true (validate_runs s t 0 [ send_first; receive ]);
  Alcotest.(check bool) "runs: the receive first" false (validate_runs s t 0 [ receive; send_first ]);
  (* One round reading [0,2) of rank 1 and writing it: refused by the sorted runs. *)
  Alcotest.(check bool) "runs: a round that reads what it writes" false
    (validate_runs s t 0 [ send_first @ receive ]);
  Alcotest.(check (option string)) "generator's schedule" None (judge s t 1)

let () =
  Tap.run "inplace"
    [ ("examples",
        [ Alcotest.test_case "transpose, staging of one element" `Quick transpose_one_element;
          Alcotest.test_case "no staging, no plan" `Quick no_staging;
          Alcotest.test_case "a read after an overwrite is refused" `Quick overwritten_read_refused ] );
      ("random",
        [ Alcotest.test_case "200 problems, staging 1, 2, 5, 64 and unbounded" `Quick random_problems;
          Alcotest.test_case "100 even problems (long runs), the same staging" `Quick even_problems;
          Alcotest.test_case "60 uneven problems up to 16 devices, staging 97, 500, 4000 and unbounded" `Quick
            uneven_problems ] );
      ("large", [ Alcotest.test_case "64 ranks and 16 MiB plan within 20 s at 5% staging" `Quick large_problems ] ) ]
