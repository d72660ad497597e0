(* Alcotest's own runner prints for people and ends with a summary that a
   counter would have to parse; running the same test lists here prints the
   protocol that every runner of the project prints. *)

(* [captured f]: f's result (or exception) and what it wrote to stdout, its
   stderr dropped: alcotest's check writes an "ASSERT" line there for every
   check, and a failing check carries its message in its exception. *)
let captured f =
  let flush_all () = Format.pp_print_flush Format.std_formatter (); Format.pp_print_flush Format.err_formatter ();
    flush stdout; flush stderr in
  let out_file = Filename.temp_file "tap" ".out" in
  flush_all ();
  let saved_out = Unix.dup Unix.stdout and saved_err = Unix.dup Unix.stderr in
  let out_fd = Unix.openfile out_file [ Unix.O_WRONLY; Unix.O_TRUNC ] 0o600 in
  let null_fd = Unix.openfile "/dev/null" [ Unix.O_WRONLY ] 0 in
  Unix.dup2 out_fd Unix.stdout;
  Unix.dup2 null_fd Unix.stderr;
  let outcome = match f () with () -> Ok () | exception e -> Error e in
  flush_all ();
  Unix.dup2 saved_out Unix.stdout;
  Unix.dup2 saved_err Unix.stderr;
  List.iter Unix.close [ saved_out; saved_err; out_fd; null_fd ];
  let ic = open_in_bin out_file in
  let text = Fun.protect ~finally:(fun () -> close_in ic) (fun () -> really_input_string ic (in_channel_length ic)) in
  Sys.remove out_file;
  (outcome, text)

let comment text =
  String.split_on_char '\n' text |> List.iter (fun line -> if line <> "" then Printf.printf "# %s\n" line)

let run suite tests =
  print_endline "TAP version 13";
  let number = ref 0 and failed = ref 0 in
  List.iter
    (fun (group, cases) ->
      List.iter
        (fun (case, _speed, body) ->
          incr number;
          let outcome, printed = captured body in
          let what = Printf.sprintf "%s: %s: %s" suite group case in
          (match outcome with
          | Ok () -> Printf.printf "ok %d - %s\n" !number what
          | Error e ->
              incr failed;
              Printf.printf "not ok %d - %s\n" !number what;
              comment (Printexc.to_string e) (* alcotest registers a printer for its failures *));
          comment printed;
          flush stdout)
        cases)
    tests;
  Printf.printf "1..%d\n%!" !number;
  exit (if !failed = 0 then 0 else 1)
