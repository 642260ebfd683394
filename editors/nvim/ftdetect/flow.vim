" FlowCabal workflow files.
autocmd BufRead,BufNewFile *.flow set filetype=flow
