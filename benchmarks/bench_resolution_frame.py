"""How much drawing a resolution step costs against the live board (issue 24): the dispatch's end
rebuilt from the history (Game.dispatch_end), its frame and the SVG, against board_svg_html of
the state now; best of 3 runs of 200 renders each, side by side. ``python benchmarks/bench_resolution_frame.py``"""
import time
from dungeon_guilds import Game, Rules
from dungeon_guilds.analysis.bots import make_bot
from dungeon_guilds.drawing.board_svg import board_svg_html
from dungeon_guilds.drawing.resolving import resolution_frame
g = Game(4, seed=3, rules=Rules(lords="all")); g.exhaust_randomly()
bots=[make_bot("greedy", seed=i) for i in range(4)]
while g.state.round < 1:
    g.push(bots[g.current].choose(g.state.copy(), g.current))
N=200
def live():
    board_svg_html(g.state, "en", viewer=0, log=g.log)
def frame():
    end = g.dispatch_end(1)
    board_svg_html(end, "en", viewer=0, log=g.log, frame=resolution_frame(end, g.log, 1, 2))
for f in (live, frame): f()
res = {}
for rep in range(3):
    for f in (live, frame):
        t=time.perf_counter()
        for _ in range(N): f()
        res.setdefault(f.__name__, []).append((time.perf_counter()-t)/N*1000)
print({k: [round(x,2) for x in v] for k,v in res.items()}, "ratio", round(min(res['frame'])/min(res['live']),2))
