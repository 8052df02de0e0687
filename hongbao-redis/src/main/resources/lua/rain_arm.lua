--[[
rain_arm.lua: writes one home slot's share of every round of a campaign, once.

KEYS[1]      hb:cp:{cp:<campaign>:<j>}:armed     string: 'R:<nonce>' armed and being restored by the
                                                arming that wrote nonce; '1' open to taps
KEYS[2..R+1] hb:cp:{cp:<campaign>:<j>}:r<round>  hash: line index -> prizes left, 't' -> taps
ARGV[1] R (rounds)   then per round: L (lines), then L counts (this sub-pool's share of each line)
ARGV[last] a nonce of this arming

Replies: the slot's marker: 'R:<nonce>' of this arming if it armed the slot now; else the marker
it found ('1', or the 'R:…' of an arming whose restore has not finished), nothing changed.

Atomic, so a slot is either fully armed or not at all: arming again (another instance, a retry
after a failure between the database commit and the arming) never adds a prize twice. A slot is
armed 'R:<nonce>': taps are refused (LOST) until the wins the reward book holds are put back
(rain_restore.lua, rain_count.lua) and rain_seal.lua opens it, so a slot that Redis lost never
offers a prize already won. The nonce keeps a restore from opening a slot that was lost again
and re-armed by someone else while it ran.
--]]
local marker = redis.call('GET', KEYS[1])
if marker then return marker end
local at = 2
for r = 1, tonumber(ARGV[1]) do
  local lines = tonumber(ARGV[at])
  at = at + 1
  for line = 0, lines - 1 do
    redis.call('HSET', KEYS[r + 1], tostring(line), ARGV[at])
    at = at + 1
  end
  redis.call('HSETNX', KEYS[r + 1], 't', '0')
end
marker = 'R:' .. ARGV[#ARGV]
redis.call('SET', KEYS[1], marker)
return marker
