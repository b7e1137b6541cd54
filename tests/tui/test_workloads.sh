#!/bin/sh
# Screen test: the left list adds (asking the kind), clones and deletes
# (asking) teams and workloads; choice fields cycle with the arrow keys and
# open a pick list; :set accelerator switches the plan's accelerator; a new
# plan comes from a template.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 14

tui_start 120 40
tui_open_plan frontier-2027
tui_keys a
tui_wait '(inference workload|training workload)'; ok $? "a asks what to add"
tui_type 'team'; tui_keys Enter
tui_wait 'added team team' && tui_wait 'team +\(team\)'; ok $? "a new team is added and selected"
tui_keys c
tui_wait 'cloned as team-copy'; ok $? "c clones the selection"
tui_keys d
tui_wait 'Delete team team-copy\? \(y/n\)'; ok $? "d asks before deleting"
tui_keys y
tui_wait 'deleted team team-copy' && tui_wait_gone 'team-copy +team'; ok $? "the team is gone from the list"
tui_keys /
tui_type 'noteb'
tui_wait 'notebooks +\(job class\)'; ok $? "/ finds in the list as you type"
tui_keys Enter
tui_keys ':'; tui_type 'set per_day 90'; tui_keys Enter
tui_wait 'per_day = 90'; ok $? ":set edits a field of the selected job class"
# chat-70b: precision is the 5th field (name, kind, team, accelerator, precision)
tui_keys g Down Tab Down Down Down Down
tui_wait 'precision +fp8'
tui_keys Right
tui_wait 'precision = fp4'; ok $? "Right cycles a choice field and applies it"
tui_keys Left
tui_wait 'precision = fp8'; ok $? "Left cycles back"
tui_keys p
tui_wait 'filter:' && tui_wait 'bf16'; ok $? "p opens the pick list of the choices"
tui_keys Escape
tui_keys ':'; tui_type 'set accelerator H200'; tui_keys Enter
tui_wait "MIG jobs moved to H200: research/notebooks 3g.40gb → 3g.71gb" &&
    ! tui_screen | grep -q 'invalid'
ok $? "an accelerator without the plan's MIG profiles is accepted, the jobs moved to its nearest profile (issue 15)"
tui_keys F3 n
tui_wait 'New plan from template'
tui_type 'startup'; tui_keys Enter
tui_wait 'Name of the new plan:'; ok $? "n asks for the new plan's name"
tui_keys Enter
tui_wait 'Discard unsaved changes'
tui_keys y
tui_wait 'gpuplan .* startup-h200-new \(unsaved\)'; ok $? "the new plan opens, unsaved"
tui_idle
tui_keys ':'; tui_type 'set accelerator H100-SXM'; tui_keys Enter
tui_wait 'gpuplan .* H100-SXM ' 30; ok $? ":set accelerator switches the plan's accelerator"
tui_keys ':'; tui_type 'q!'; tui_keys Enter
tui_wait_exit >/dev/null
exit $tap_failed
