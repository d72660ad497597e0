(* Crowbar target for `make fuzz`: arbitrary mesh, source, target and plan
   texts through the parser, front end, checker and reports.  A crash is
   any exception other than the clean rejections, or a rejection message
   that is empty or spans several lines.  Run without arguments it tests
   random inputs; with a file argument it runs in AFL mode. *)

let clean msg = msg <> "" && not (String.contains msg '\n')

let front mesh from to_ plan =
  match Problem.make ~mesh ~from ~to_ ~dtype:None with
  | exception Front.Bad_input msg -> Crowbar.check (clean msg)
  | p -> (
      match Planfile.check p plan with
      | exception (Report.Rejected msg | Front.Bad_input msg) -> Crowbar.check (clean msg)
      | r ->
          let g = Guarantees.for_check ~refined:false in
          Crowbar.check (Report.text ~title:"fuzz" ~guarantees:g r <> "");
          Crowbar.check (Cxx.print (Emit.collectives_header ~backend:Emit.Mpi ~name:"fuzz" r ~guarantees:g) <> ""))

let () = Crowbar.add_test ~name:"front end" Crowbar.[ bytes; bytes; bytes; bytes ] front
