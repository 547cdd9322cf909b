import os
import sys

# the repository root: the lab's modules (``lab.*``) and the engine (``hearts``)
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
