let () = Cli.tune_gc ()
let () = exit (try Cli.run Sys.argv with _ -> prerr_endline "redist: internal error"; 3)
