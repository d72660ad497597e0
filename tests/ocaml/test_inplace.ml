(* The extracted in-place plan (generator, then the validator on blocks)
   on random problems: uneven sizes, one mesh or two placed anywhere,
   staging budgets from one element to unbounded; and on even sizes, where
   the generator moves blocks of many elements.  Every accepted schedule is run here on
   one buffer per rank, by this file's own reading of a round (all runs read
   at the round's start, then written), and every target element checked. *)
open Redist_core

let seed = 20261128

let gen_mesh = Mesh_gen.mesh ~max_axes:2 ~names:4 ~max_devices:8 ~sizes:[ 1; 2; 2; 3; 4 ]

let gen_problem_of ~max_rank sizes =
  let open QCheck.Gen in
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

let gen_problem = gen_problem_of ~max_rank:3 [ 1; 2; 3; 4; 5; 6; 7; 9 ]

(* Multiples of every mesh size up to 4: blocks of many elements. *)
let gen_even_problem = gen_problem_of ~max_rank:2 [ 12; 24 ]

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
          else if sc <> [] && validate_blocks s t budget (snd (inplace_schedule s t budget)) (drop_last sc) then
            Some "the validator on blocks accepts the schedule less its last round"
          else None)

(* [n] problems of [gen]: the problem-budget pairs checked, the most
   rounds, the largest block, and what went wrong. *)
let check_problems gen n =
  let rand = Random.State.make [| seed |] in
  let bad = ref [] and checked = ref 0 and max_rounds = ref 0 and max_block = ref 0 in
  for _ = 1 to n do
    let s, t = gen rand in
    if layouts_wf s t then begin
      let unbounded = 1 + List.fold_left (fun acc w -> acc + held s w + held t w) 0 (ranks s t) in
      List.iter
        (fun budget ->
          incr checked;
          (match inplace_plan s t budget with
           | Some sc -> max_rounds := max !max_rounds (List.length sc)
           | None -> ());
          max_block := max !max_block (snd (inplace_schedule s t budget));
          match judge s t budget with
          | None -> ()
          | Some why ->
              bad := Printf.sprintf "%s -> %s, staging %d: %s" (pp_layout s) (pp_layout t) budget why :: !bad)
        [ 1; 2; 5; 64; unbounded ]
    end
  done;
  List.iteri (fun i b -> if i < 5 then print_endline b) (List.rev !bad);
  Printf.printf "%d problem-budget pairs checked, at most %d rounds, blocks of up to %d elements\n" !checked
    !max_rounds !max_block;
  (!checked, !max_block, List.length !bad)

let random_problems () =
  let n = 200 in
  let checked, _, bad = check_problems gen_problem n in
  Alcotest.(check bool) "most problems well-formed" true (checked >= 5 * n * 3 / 4);
  Alcotest.(check int) (Printf.sprintf "bad results among %d problem-budget pairs" checked) 0 bad

let even_problems () =
  let n = 100 in
  let checked, max_block, bad = check_problems gen_even_problem n in
  Alcotest.(check bool) "most problems well-formed" true (checked >= 5 * n * 3 / 4);
  Alcotest.(check bool) "blocks of more than one element" true (max_block > 1);
  Alcotest.(check int) (Printf.sprintf "bad results among %d problem-budget pairs" checked) 0 bad

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
  Alcotest.(check (option string)) "generator's schedule" None (judge s t 1)

let () =
  Tap.run "inplace"
    [ ("examples",
        [ Alcotest.test_case "transpose, staging of one element" `Quick transpose_one_element;
          Alcotest.test_case "no staging, no plan" `Quick no_staging;
          Alcotest.test_case "a read after an overwrite is refused" `Quick overwritten_read_refused ] );
      ("random",
        [ Alcotest.test_case "200 problems, staging 1, 2, 5, 64 and unbounded" `Quick random_problems;
          Alcotest.test_case "100 even problems (blocks), the same staging" `Quick even_problems ] ) ]
