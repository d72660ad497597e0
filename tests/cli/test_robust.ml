(* Robustness: 100,000 random and mutated inputs (mesh, source, target,
   plan file, hybrids' via lines among them) through everything the
   commands run: parser, front end, checker (any strategy), reports, show,
   planner and emitter.  Every input must either
   succeed or be rejected with a clean one-line message; any other
   exception fails the test.  Fixed seed (printed). *)

let seed = 20211203
let count = 100_000

let seeds =
  [ ("{x:2, y:3}", "[3{x}6]", "[2{y}6]", "dyn_slice(0, y)\nall_permute([1{y,x}6])\nall_gather(0)\n");
    ("{a:3, b:6}", "[2{a}6]", "[1{b}6]", "refine b = b.0:3 * b.1:2\ndyn_slice(0, b.1)\nall_permute([1{b}6])\n");
    ("{x:2, y:4}", "[16{x}32, 64{y}256]", "[8{y}32, 128{x}256]",
     "refine y = y.0:2 * y.1:2\nall_to_all(1, 0)  # move\nall_permute([8{y}32, 128{x}256])\n");
    ("{x:4}", "i32[{x}8, 4]", "i32[8, 4]", "all_gather(0)\n");
    ("{x:2, y:2, z:3}", "f64[{x,z}12, {y}4]", "[{z}12, {x,y}4]", "all_to_all(0, 1)\nall_permute([2{z}12, 2{y,x}4])\nall_gather(1)\n");
    (* hybrids: mutations repeat and break their via lines *)
    ("{a:2, b:4}", "[{b}64, {a}64]", "[64, 64]", "exchange\nvia [16{b}64, 64]\nall_gather(0)\n");
    ("{x:2}", "[4]", "[4]", "exchange\nvia [{x}4]\nexchange\nvia [4]\n") ]

let alphabet = "{}[](),:*=#. \n\txyzab.0123456789_f"
let weird_numbers = [ "0"; "1"; "65536"; "65537"; "1125899906842623"; "1125899906842624"; "99999999999999999999"; "" ]

let mutate_once st s =
  let n = String.length s in
  let pos () = if n = 0 then 0 else Random.State.int st (n + 1) in
  let ch () =
    if Random.State.int st 20 = 0 then Char.chr (Random.State.int st 256)
    else alphabet.[Random.State.int st (String.length alphabet)]
  in
  match Random.State.int st 6 with
  | 0 when n > 0 -> let i = Random.State.int st n in String.sub s 0 i ^ String.sub s (i + 1) (n - i - 1)
  | 1 -> let i = pos () in String.sub s 0 i ^ String.make 1 (ch ()) ^ String.sub s i (n - i)
  | 2 when n > 0 -> let i = Random.State.int st n in String.sub s 0 i ^ String.make 1 (ch ()) ^ String.sub s (i + 1) (n - i - 1)
  | 3 when n > 0 ->
      let i = Random.State.int st n in
      let len = Random.State.int st (n - i + 1) in
      let piece = String.sub s i len in
      let j = pos () in
      String.sub s 0 j ^ piece ^ String.sub s j (n - j)
  | 4 -> (
      (* Replace a run of digits by a number near a limit. *)
      let digits = List.filter (fun i -> Syntax.is_digit s.[i]) (List.init n Fun.id) in
      match digits with
      | [] -> s
      | _ ->
          let i = List.nth digits (Random.State.int st (List.length digits)) in
          let j = ref i in
          while !j < n && Syntax.is_digit s.[!j] do incr j done;
          let w = List.nth weird_numbers (Random.State.int st (List.length weird_numbers)) in
          String.sub s 0 i ^ w ^ String.sub s !j (n - !j))
  | _ -> String.init (Random.State.int st 30) (fun _ -> ch ())

let mutate st s =
  let rec go k s = if k = 0 then s else go (k - 1) (mutate_once st s) in
  go (1 + Random.State.int st 3) s

let gen_input : (string * string * string * string) QCheck.Gen.t =
 fun st ->
  let m, f, t, p = List.nth seeds (Random.State.int st (List.length seeds)) in
  let field s = match Random.State.int st 4 with 0 -> mutate st s | _ -> s in
  (* Mutate at least one field, usually one. *)
  let m, f, t, p =
    match Random.State.int st 4 with
    | 0 -> (mutate st m, field f, field t, field p)
    | 1 -> (m, mutate st f, field t, field p)
    | 2 -> (m, f, mutate st t, field p)
    | _ -> (m, f, t, mutate st p)
  in
  (m, f, t, p)

let clean msg = msg <> "" && not (String.contains msg '\n')

let accepted = ref 0 and rejected_input = ref 0 and rejected_plan = ref 0 and ran = ref 0

(* Planning and printing the blocks stay cheap on the small meshes the
   mutations mostly produce; the big ones still go through the front end. *)
let small (p : Problem.t) = Front.mesh_size p.env <= 64

let pipeline (mesh, from, to_, plan) =
  incr ran;
  match Problem.make ~mesh ~from ~to_ ~dtype:None with
  | exception Front.Bad_input msg -> incr rejected_input; clean msg
  | p ->
      let r_ok =
        match Planfile.check_any p plan with
        | Xreport.Collectives r ->
            incr accepted;
            let g = Guarantees.for_check ~refined:false in
            String.length (Report.text ~title:"t" ~guarantees:g r) > 0
            && Json.report ~command:"check" ~guarantees:g r <> `Null
            && String.length (Cxx.print (Emit.collectives_header ~backend:Emit.Mpi ~name:"n" r ~guarantees:g)) > 0
        | x ->
            incr accepted;
            let g = Guarantees.for_checked x in
            String.length (Xreport.plan_text ~title:"t" ~guarantees:g x) > 0
            && Json.any_report ~command:"check" ~guarantees:g x <> `Null
        | exception (Report.Rejected msg | Front.Bad_input msg) -> incr rejected_plan; clean msg
      in
      let extra_ok =
        (not (small p))
        || (String.length (Show.render (Problem.source_placed p) p.src) > 0
           &&
           match Planning.choose p with
           | r, g -> String.length (Xreport.plan_text ~title:"t" ~guarantees:g r) > 0
           | exception Front.Bad_input msg -> clean msg)
      in
      r_ok && extra_ok

(* One property, so one test; its case count goes beside it. *)
let () =
  let show (m, f, t, p) = Printf.sprintf "--mesh %S --from %S --to %S --plan %S" m f t p in
  let test = QCheck.Test.make ~count ~name:"clean errors" (QCheck.make ~print:show gen_input) pipeline in
  let property () =
    Printf.printf "robustness: seed %d, %d inputs\n" seed count;
    let rc = QCheck_base_runner.run_tests ~colors:false ~rand:(Random.State.make [| seed |]) [ test ] in
    Printf.printf "inputs: %d run, %d rejected as bad input, %d plans rejected, %d plans accepted\n" !ran
      !rejected_input !rejected_plan !accepted;
    if rc <> 0 then Alcotest.fail "an input was not a clean error (the counterexample above)"
  in
  Tap.run "cli-robust"
    [ ("property", [ Alcotest.test_case (Printf.sprintf "clean errors (%d cases)" count) `Quick property ]) ]
