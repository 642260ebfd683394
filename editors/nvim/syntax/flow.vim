" Vim syntax file
" Language:    FlowCabal workflow (.flow)
" Maintainer:  FlowCabal
"
" Group names are stable: editors/nvim/test/plugin_spec.lua asserts them.

if exists('b:current_syntax')
  finish
endif

let s:cpo_save = &cpo
set cpo&vim

syn iskeyword @,48-57,_,192-255
syn case match
syn sync fromstart

" Identifiers are Unicode (第十二章 is a valid node name). Vim's \w is ASCII
" only, so any non-ASCII character counts as an identifier character here.
let s:ident = '\%(\h\|[^\x00-\x7f]\)\%(\w\|[^\x00-\x7f]\)*'

" Comments: # to end of line, outside prompts and strings.
syn match   flowComment     /#.*$/ contains=flowTodo,@Spell
syn keyword flowTodo        TODO FIXME XXX NOTE contained

" Top-level forms.
syn keyword flowWorkflowKeyword workflow nextgroup=flowTitle skipwhite
syn keyword flowNodeKeyword     node     nextgroup=flowNodeName skipwhite
syn keyword flowUseKeyword      use      nextgroup=flowUsePath skipwhite
syn keyword flowAsKeyword       as       nextgroup=flowAlias skipwhite
exe 'syn match flowNodeName /' . s:ident . '/ contained nextgroup=flowTitle skipwhite'
exe 'syn match flowAlias /' . s:ident . '/ contained'
syn region  flowTitle   start=/"/ skip=/\\\\\|\\"/ end=/"/ contained oneline
syn region  flowUsePath start=/"/ skip=/\\\\\|\\"/ end=/"/ contained oneline

" Attributes: name = value.
exe 'syn match flowAttribute /' . s:ident . '\ze\s*=/'
syn match   flowOperator    /=/
syn match   flowNumber      /\<-\=\d\+\%(\.\d\+\)\=\%([eE][-+]\=\d\+\)\=\>/
syn keyword flowBoolean     true false
syn region  flowString      start=/"/ skip=/\\\\\|\\"/ end=/"/ oneline contains=flowStringEscape
syn match   flowStringEscape /\\[\\"nt]/ contained
syn match   flowBrace       /[{}\[\]]/

" Prompts: system """…""" and user """…""". Defined after flowString so that
" a """ opening wins over a plain string at the same column.
syn keyword flowPromptKeyword system user
syn region  flowPrompt matchgroup=flowPromptDelim start=/"""/ end=/"""/ keepend
      \ contains=flowEscape,flowKnowledgeRef,flowRef,@Spell

" Inside prompts: \{{ is a literal {{; {{name}} / {{file.node}} is an upstream
" output; {{@path[:L1]}} is a knowledge resource.
syn match   flowEscape       /\\{{/ contained
syn match   flowRef          /{{\s*[^@{}[:space:]][^{}]*}}/ contained contains=flowRefDelim
syn match   flowKnowledgeRef /{{\s*@[^{}]*}}/ contained contains=flowRefDelim
syn match   flowRefDelim     /{{\|}}/ contained

hi def link flowComment          Comment
hi def link flowTodo             Todo
hi def link flowWorkflowKeyword  Keyword
hi def link flowNodeKeyword      Keyword
hi def link flowUseKeyword       Include
hi def link flowAsKeyword        Include
hi def link flowPromptKeyword    Statement
hi def link flowNodeName         Function
hi def link flowAlias            Identifier
hi def link flowTitle            Title
hi def link flowUsePath          String
hi def link flowAttribute        Identifier
hi def link flowOperator         Operator
hi def link flowNumber           Number
hi def link flowBoolean          Boolean
hi def link flowString           String
hi def link flowStringEscape     SpecialChar
hi def link flowBrace            Delimiter
hi def link flowPromptDelim      Delimiter
hi def link flowPrompt           Normal
hi def link flowEscape           SpecialChar
hi def link flowRef              Special
hi def link flowKnowledgeRef     Include
hi def link flowRefDelim         Delimiter

let b:current_syntax = 'flow'

let &cpo = s:cpo_save
unlet s:cpo_save
