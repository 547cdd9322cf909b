"""The hand review: the hand replayed trick by trick with Hard's verdict on each decision."""
