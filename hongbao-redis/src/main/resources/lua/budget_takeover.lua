--[[
budget_takeover.lua: lets one replay finish a synchronous send that stopped unsettled. A trade
record marked sync and accepted before ARGV[2] is taken over: its accepted time becomes ARGV[3], so
the replays after it see a send that may still be running (its own), and are told to try again.

KEYS[1] trades      hb:rwb:{<campaign>:<k>}:t   hash: tradeNo -> digest|cost|acceptedAtMillis|token|sync
ARGV[1] tradeNo  ARGV[2] accepted before (ms)  ARGV[3] now (ms)

Replies (integer): 1 taken over by this caller; 0 not (released, not sync, or too recent).

Atomic so that of replays racing for one stopped send exactly one issues it.
--]]
local prior = redis.call('HGET', KEYS[1], ARGV[1])
if not prior then return 0 end
local digest, cost, at, rest = string.match(prior, '^([^|]*)|([^|]*)|([^|]*)|(.*)$')
if not rest or string.sub(rest, -5) ~= '|sync' then return 0 end
if tonumber(at) >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], digest .. '|' .. cost .. '|' .. ARGV[3] .. '|' .. rest)
return 1
