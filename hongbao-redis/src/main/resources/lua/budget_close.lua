--[[
budget_close.lua: closes one budget key of a campaign: its allowance becomes what it reserved,
and it is marked closed: budget_reserve.lua reserves nothing more on it and budget_lend.lua lends
nothing from it (not even room a later release leaves), and budget_grant.lua gives it no allowance
a borrower took before the close.

KEYS[1] budget key  hb:rwb:{<campaign>:<k>}   hash: cap, used, ...

Replies: the key's reserved total (fen); -1 if the key was never opened.

Atomic, so no reservation slips between reading `used` and capping at it; closing twice changes
nothing the second time.
--]]
local used = redis.call('HGET', KEYS[1], 'used')
if not used then return -1 end
redis.call('HSET', KEYS[1], 'cap', used, 'closed', 1)
return tonumber(used)
