import streamlit as st

from components.engine_overview import render_engine_overview

st.title("Aeko Studio")
st.caption("GHG inventory analysis and improvement plans for ESG analysts.")
render_engine_overview()
