--[[
budget_freeze.lua: holds one budget key still while an edit of its campaign commits, or lets it go.

KEYS[1] budget key  hb:rwb:{<campaign>:<k>}
ARGV[1] until when (epoch ms) the key takes no reservation and lends nothing; '0' to let it go;
        'ended' to let go of an ended freeze, whoever's, where the key still holds it exactly as
        ARGV[2] gives it (seen ended before the books were read, which then said its edit did not
        commit, or that the keys hold its version): a freeze renewed since is another, and stays
ARGV[2] the edit's token (the freeze is its own: only it lets the key go); with 'ended', the
        whole field as seen
ARGV[3] now (epoch ms)

The field: frozen = '<until>|<token>'.

Replies (integer): 1 frozen (or let go, or never opened: nothing was reserved here); 0 the key
was reserved from, lent, borrowed or closed already: not frozen, its budget can no longer be
resized; -1 another edit holds the key frozen: not frozen.

Why: an edit of a scheduled rain checks that nothing was reserved from the budget, commits the
new budget in the database, then resizes the keys (budget_open.lua, which refuses a key reserved
from meanwhile). A reward sent through the API between the check and the resize left the keys
half resized and the campaign's arming refused for good. Frozen first, a key refuses reservations
(budget_reserve.lua answers FROZEN, a retry) until the resize lets it go, or the edit lets it go
(not committed). Past `until` (an edit whose instance died, before or after its commit, or whose
arming failed) it still lends nothing, and a reservation is answered LAPSED: the caller reads the
books (a read that waits for an edit in flight), resizes when they hold a newer version, and lets
go of the ended freeze ('ended'). One edit at a time: a second one, let through, could resize
the keys to the first one's version while its own commit is still on its way, or let the first
one's freeze go. Atomic so the check and the freeze happen together.
--]]
local held = redis.call('HGET', KEYS[1], 'frozen')
local heldUntil, heldToken
if held then heldUntil, heldToken = string.match(held, '^(%d+)|(.*)$') end
if ARGV[1] == '0' then
  if heldToken == ARGV[2] then redis.call('HDEL', KEYS[1], 'frozen') end
  return 1
end
if ARGV[1] == 'ended' then
  if held == ARGV[2] then redis.call('HDEL', KEYS[1], 'frozen') end
  return 1
end
if heldToken and heldToken ~= ARGV[2] and tonumber(heldUntil) > tonumber(ARGV[3]) then
  return -1
end
local state = redis.call('HMGET', KEYS[1], 'budget', 'used', 'lent', 'borrowed', 'closed')
if not state[1] then return 1 end
if state[5] then return 0 end
for i = 2, 4 do
  if tonumber(state[i] or '0') ~= 0 then return 0 end
end
redis.call('HSET', KEYS[1], 'frozen', ARGV[1] .. '|' .. ARGV[2])
return 1
