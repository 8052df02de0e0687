--[[
type_put.lua: defines a reward type or changes its settings, unless it has another kind.

KEYS[1] types  hash: type -> kind|ratePerSecond|burst|fused|queue|issuerUrl
ARGV[1] type  ARGV[2] its encoding (the kind first)  ARGV[3] the kind the caller's copy holds for
the type, or "" (the copy's word counts when Redis lost the type)

Replies: 'OK' stored; otherwise the kind the type has (stored, or else the caller's copy's), and
nothing changed.

Atomic so that of two instances defining one type with different kinds at once, one stores it and
the other is refused: read, then written, each could find no type and the later write win, and
rewards accepted as coupons (costing the budget nothing) would be credited as cash.
--]]
local wanted = string.match(ARGV[2], '^([^|]*)')
local stored = redis.call('HGET', KEYS[1], ARGV[1])
local kind = stored and string.match(stored, '^([^|]*)') or ARGV[3]
if kind ~= '' and kind ~= wanted then return kind end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 'OK'
